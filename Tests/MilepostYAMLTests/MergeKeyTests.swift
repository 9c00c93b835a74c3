import MilepostYAML
import Testing

/// YAML 1.1 merge keys as docker-compose and GitLab CI use them: `<<: *a` and `<<: [*a, *b]`;
/// keys written in the mapping win, and an earlier merged mapping wins over a later one.
@Suite struct MergeKeyTests {
    @Test func mergeBringsInTheAnchoredPairs() throws {
        let root = try #require(parse("base: &b {table: dailys, batch: 500}\nuse:\n  <<: *b\n  extra: 1\n"))
        let use = try #require(root["use"])
        #expect(use.pairs.map { $0.key.scalar } == ["extra", "table", "batch"])
        #expect(use["table"]?.scalar == "dailys")
        #expect(use["<<"] == nil)
    }

    @Test func explicitKeysWinOverMergedOnes() throws {
        let root = try #require(parse("base: &b {table: dailys, batch: 500}\nuse: {batch: 10, <<: *b}\n"))
        #expect(root["use"]?["batch"]?.scalar == "10")
        #expect(root["use"]?["table"]?.scalar == "dailys")
        #expect(root["use"]?.pairs.count == 2)
    }

    @Test func earlierMergesWinOverLaterOnes() throws {
        let source = "a: &a {x: 1, y: 1}\nb: &b {y: 2, z: 2}\nuse: {<<: [*a, *b]}\nrev: {<<: [*b, *a]}\n"
        let root = try #require(parse(source))
        #expect(root["use"]?["x"]?.scalar == "1")
        #expect(root["use"]?["y"]?.scalar == "1")
        #expect(root["use"]?["z"]?.scalar == "2")
        #expect(root["rev"]?["y"]?.scalar == "2")
    }

    @Test func mergedMappingsMayMergeThemselves() throws {
        let root = try #require(parse("a: &a {x: 1}\nb: &b {<<: *a, y: 2}\nuse: {<<: *b}\n"))
        #expect(root["use"]?["x"]?.scalar == "1")
        #expect(root["use"]?["y"]?.scalar == "2")
    }

    @Test func aQuotedKeyIsNotAMergeKey() throws {
        let root = try #require(parse("a: &a {x: 1}\nuse: {'<<': *a}\n"))
        #expect(root["use"]?["<<"]?["x"]?.scalar == "1")
    }

    @Test func mergingAScalarIsAnError() {
        #expect(parseErrors("a: &a x\nuse: {<<: *a}\nlist: {<<: [{k: 1}, oops]}\n") == [
            YAMLError("a merge key ('<<') takes a mapping or a list of mappings", at: at(1, 4)),
            YAMLError("a merge key ('<<') takes a mapping or a list of mappings", at: at(3, 21)),
        ])
    }

    @Test func duplicateExplicitKeysAreStillErrors() {
        let errors = parseErrors("a: &a {x: 1}\nuse: {<<: *a, y: 1, y: 2}\n")
        #expect(errors.map(\.message) == ["duplicate key 'y'"])
    }

    /// An error about merged content names the anchor's place and, as notes, where it was merged.
    @Test func decodingErrorsInMergedContentPointAtTheUseAndTheAnchor() throws {
        struct Parameters: Decodable { var batch: Int }
        let source = "defaults: &d {batch: many}\nstep:\n  <<: *d\nother:\n  with: *d\n"
        let root = try #require(parse(source))
        #expect(throws: YAMLError("'batch': expected an integer, found the string \"many\"", at: at(1, 22),
                                  notes: [YAMLError.Note("merged here", at: at(3, 7))])) {
            try YAMLNodeDecoder().decode(Parameters.self, from: root["step"])
        }
        #expect(throws: YAMLError("'batch': expected an integer, found the string \"many\"", at: at(1, 22),
                                  notes: [YAMLError.Note("used here", at: at(5, 9))])) {
            try YAMLNodeDecoder().decode(Parameters.self, from: root["other"]?["with"])
        }
    }

    @Test func unknownMergedKeysPointAtTheUseToo() throws {
        struct Parameters: Decodable { var batch: Int }
        let root = try #require(parse("defaults: &d {bach: 1}\nstep: {<<: *d}\n"))
        #expect(throws: YAMLError("unknown parameter 'bach'", at: at(1, 15), notes: [
            YAMLError.Note("did you mean 'batch'?"), YAMLError.Note("merged here", at: at(2, 12)),
        ])) {
            try YAMLNodeDecoder().decode(Parameters.self, from: root["step"])
        }
    }

    @Test func canonicalTextSeesTheMergedMapping() throws {
        let root = try #require(parse("a: &a {x: 1, y: 1}\nuse: {y: 2, <<: *a}\nsame: {x: 1, y: 2}\n"))
        #expect(root["use"]?.canonicalText == root["same"]?.canonicalText)
    }
}
