import Foundation
import Testing

/// Hostile manifests through `milepost validate`: each is refused with exit 65 and a message
/// located at the offending file, line and column, never a crash or a hang. The compact cases
/// are the fuzzer's seeds (`fuzz/corpus/manifest/hostile-*`); the big ones are made here.
@Suite struct ReliabilityHostileManifestTests {
    static let corpus = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("fuzz/corpus/manifest").path

    /// Every hostile seed and the first error `validate` must report for it, as `LINE:COL: error: MESSAGE`.
    static let seeds: [String: String] = [
        "hostile-alias-bomb.yaml": "6:16: error: aliases expand to more than 250000 nodes (alias '*e')",
        "hostile-big-scalar-aliased.yaml": "3:17: error: aliases expand to more than 4194304 bytes of scalars (alias '*b')",
        "hostile-recursive-alias.yaml": "2:9: error: alias '*m' refers to a node that contains it (recursive alias)",
        "hostile-deep-flow.yaml": "1:65: error: nesting is deeper than the limit of 64 levels",
        "hostile-deep-block.yaml": "65:129: error: nesting is deeper than the limit of 64 levels",
        "hostile-invalid-utf8.yaml": "3:15: error: invalid UTF-8: invalid leading UTF-8 octet 0xFF",
        "hostile-cut-utf8.yaml": "1:10: error: invalid UTF-8: invalid trailing UTF-8 octet 0x22",
        "hostile-nul-byte.yaml": "1:8: error: control character U+0000 is not allowed",
        "hostile-binary-junk.bin": "1:3: error: invalid UTF-8: invalid leading UTF-8 octet 0xBD",
        "hostile-tabs.yaml": "2:1: error: a tab character cannot be used for indentation or separation here; use spaces",
        "hostile-several-documents.yaml": "5:1: error: a manifest must be exactly one YAML document; a second one starts here",
        "hostile-duplicate-keys.yaml": "3:3: error: duplicate key '1.0'",
        "hostile-unknown-tag.yaml": "1:13: error: unsupported tag '!!python/object:os.system'",
        "hostile-bad-steps.yaml": "1:6: error: 'app' must be a single value",
    ]

    @Test func everyHostileSeedHasAnExpectation() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.corpus).filter { $0.hasPrefix("hostile-") }
        #expect(Set(files) == Set(Self.seeds.keys))
    }

    @Test(arguments: seeds.keys.sorted())
    func hostileSeedIsRefusedWithALocatedError(name: String) throws {
        let path = Self.corpus + "/" + name
        try Self.expectRefused(path, at: try #require(Self.seeds[name]), in: try WorkDirectory())
    }

    @Test func twoHundredThousandDeepFlowNesting() throws {
        let work = try WorkDirectory()
        try work.write(String(repeating: "[", count: 200_000) + String(repeating: "]", count: 200_000), to: "deep.yaml")
        try Self.expectRefused("deep.yaml", at: "1:65: error: nesting is deeper than the limit of 64 levels", in: work)
    }

    /// 64 KiB anchored once and aliased 3,000 times: few nodes, 192 MiB if expanded. The byte
    /// budget (4 MiB) stops it at the 65th alias.
    @Test func bigAnchoredScalarAliasedThousandsOfTimes() throws {
        let work = try WorkDirectory()
        let uses = Array(repeating: "*big", count: 3_000).joined(separator: ", ")
        try work.write("big: &big \(String(repeating: "x", count: 65_536))\nuses: [\(uses)]\n", to: "big.yaml")
        try Self.expectRefused("big.yaml", at: "2:392: error: aliases expand to more than 4194304 bytes of scalars (alias '*big')", in: work)
    }

    @Test func aFileOverTheSizeCapIsRefusedAndTheCapCanBeRaised() throws {
        let work = try WorkDirectory()
        let padding = "#" + String(repeating: "x", count: 4 << 20) + "\n"
        try work.write("migrations:\n  1.0: [{name: exec, with: {command: [\"true\"]}}]\n" + padding, to: "big.yaml")
        let size = 4_194_367
        try Self.expectRefused("big.yaml", at: "error: the file is \(size) bytes; the limit is 4194304 bytes", in: work)

        let raised = try work.milepost.run("validate", "--manifest", "big.yaml", "--max-manifest-size", "\(size)")
        #expect(raised.status == 0, "\(raised.stderr)")
        #expect(raised.stdout.contains("big.yaml: ok, 1 step"))
        let lowered = try work.milepost.run("validate", "--manifest", "big.yaml", "--max-manifest-size", "\(size - 1)")
        #expect(lowered.status == 65)
        #expect(lowered.stderr.contains("the limit is \(size - 1) bytes"))
    }

    /// Reading either would never end (or never start): both are refused from `fstat` alone.
    @Test func devZeroAndAFIFOAreRefusedWithoutReadingThem() throws {
        let work = try WorkDirectory()
        #expect(mkfifo(work.path + "/fifo.yaml", 0o600) == 0)
        try Self.expectRefused("/dev/zero", at: "error: not a regular file (a device)", in: work)
        try Self.expectRefused("fifo.yaml", at: "error: not a regular file (a FIFO)", in: work)
    }

    /// Runs `validate` on `path` (bounded: a hang fails) and expects exit 65 with `PATH:location`.
    static func expectRefused(
        _ path: String, at location: String, in work: WorkDirectory, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let (process, stdout, stderr) = try work.milepost.start(["validate", "--manifest", path])
        let result = MilepostBinary.finish(process, stdout, stderr, within: .seconds(60), sourceLocation: sourceLocation)
        #expect(result.status == 65, "\(path): \(result.stderr.prefix(500))", sourceLocation: sourceLocation)
        #expect(result.stderr.contains("\(path):\(location.hasPrefix("error") ? " " : "")\(location)"),
                "\(result.stderr.prefix(500))", sourceLocation: sourceLocation)
    }
}
