@testable import Milepost
import MilepostYAML
import Synchronization
import Testing

/// A step's parameters are decoded again when a run needs them (issue 32: not kept for every step
/// of a loaded manifest): the same values as at load, variables substituted as they were.
@Suite struct StepParametersTests {
    static let manifest = """
        variables: [TABLE, BATCH]
        migrations:
          1.1:
            - {name: exec, id: one, with: {command: [reindex, '${TABLE}', '--batch=${BATCH:-500}'], env: {MODE: '${TABLE}-fast'}}}
            - {name: exec, id: two, with: {command: [vacuum, '$HOME', '${TABLE}']}}
        """

    @Test func parametersAreDecodedAsAtLoad() throws {
        let manifest = try Manifest.parse(
            ManifestSource(path: "/m/m.yaml", bytes: Array(Self.manifest.utf8)), registry: .standard,
            variables: ManifestVariables(["TABLE": "dailys"]))
        let substituted = manifest.substitutedVariables, shell = manifest.shellReferences
        for _ in 0..<2 {
            let one = try #require(try manifest.steps[0].parameters() as? ExecStep.Parameters)
            #expect(one.command == ["reindex", "dailys", "--batch=500"])
            #expect(one.env == ["MODE": "dailys-fast"])
            let two = try #require(try manifest.steps[1].parameters() as? ExecStep.Parameters)
            #expect(two.command == ["vacuum", "$HOME", "dailys"])
            #expect(two.env == nil)
        }
        // What the load reported is not changed by decoding again.
        #expect(manifest.substitutedVariables == substituted && substituted == ["TABLE", "BATCH"])
        #expect(manifest.shellReferences == shell)
    }

    /// Uses met while a loaded manifest's steps decode again are not recorded.
    @Test func usesAreRecordedOnlyWhileLoading() {
        let uses = VariableUses()
        let use = VariableUses.Use(written: "${X}", name: "X", location: SourceLocation(line: 1, column: 1), outcome: .substituted)
        uses.record(use)
        uses.stopRecording()
        uses.record(use)
        #expect(uses.count == 1)
    }

    /// A parameters type that counts how often it is decoded.
    struct Counted: Decodable, Sendable {
        static let decoded = Mutex(0)
        var table: String
        init(from decoder: any Decoder) throws {
            Self.decoded.withLock { $0 += 1 }
            table = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .table)
        }
        enum CodingKeys: String, CodingKey { case table }
    }

    /// Only a step whose parameters type adopts `StoreBoundParameters` is decoded to ask it.
    @Test func onlyStoreBoundStepsAreAsked() throws {
        struct Bound: Decodable, Sendable, StoreBoundParameters {
            var table: String
            func refusal(for store: any MilepostStore) -> String? { "not here: \(table)" }
            var runsInCheckpointTransaction: Bool { true }
        }
        var registry = StepRegistry.standard
        registry.register("bound", parameters: Bound.self) { _ in }
        registry.register("optionalBound", parameters: Bound?.self) { _ in }
        registry.register("counted", parameters: Counted.self) { _ in }
        let manifest = try Manifest.parse(ManifestSource(path: "/m/m.yaml", bytes: Array("""
            migrations:
              1.1:
                - {name: exec, with: {command: ['true']}}
                - {name: bound, with: {table: a}}
                - {name: optionalBound, with: {table: b}}
                - {name: counted, with: {table: c}}
            """.utf8)), registry: registry)
        let loaded = Counted.decoded.withLock { $0 }
        #expect(manifest.steps.map { $0.storeBoundParameters?.refusal(for: FileStore(path: "/nowhere")) }
            == [nil, "not here: a", "not here: b", nil])
        #expect(Counted.decoded.withLock { $0 } == loaded, "a step that is not store-bound was decoded to ask it")
    }
}
