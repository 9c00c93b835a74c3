import Foundation
import Milepost
import MilepostTesting
import Synchronization
import Testing

/// `MilepostTesting.UpgradeScenario`: a seeded temporary store, a manifest, a real run.
struct UpgradeScenarioTests {
    struct Tag: Decodable, Sendable { var tag: String }

    static let manifest = """
        app: shop
        baseline: "1.0"
        migrations:
          2.0: [{name: note, with: {tag: two}}]
          2.1: [{name: note, id: first, with: {tag: a}}, {name: note, id: second, with: {tag: b}}]
          3.0: [{name: note, with: {tag: three}}]
        """

    @Test func aStoreSeededAt20RunsOnlyTheStepsAboveItInOrderWithTheirParameters() async throws {
        let tags = Mutex<[String]>([])
        var registry = StepRegistry()
        registry.register("note", parameters: Tag.self) { context in tags.withLock { $0.append(context.parameters.tag) } }

        let scenario = try await UpgradeScenario(manifest: Self.manifest, registry: registry, seededAt: Version("2.0")!)
        let result = try await scenario.run(to: Version("2.1")!)
        #expect(result.report.outcome == .succeeded)
        #expect(result.ran == ["2.1/first", "2.1/second"])
        #expect(tags.withLock { $0 } == ["a", "b"])
        #expect(result.state?.version == Version("2.1"))
        #expect(result.state?.completed.map(\.id) == ["2.1/first", "2.1/second"])
        #expect(result.journal.first?.event == .runStarted && result.journal.last?.outcome?.rawValue == "succeeded")
        #expect(result.journal.compactMap(\.step) == ["2.1/first", "2.1/first", "2.1/second", "2.1/second"])

        let directory = scenario.directory
        #expect(FileManager.default.fileExists(atPath: directory + "/store/state.json"))
    }

    @Test func aFreshStoreRunsFromTheManifestsBaseline() async throws {
        var registry = StepRegistry()
        registry.register("note", parameters: Tag.self) { _ in }
        let result = try await UpgradeScenario(manifest: Self.manifest, registry: registry).run(to: Version("3.0")!)
        #expect(result.ran == ["2.0/note", "2.1/first", "2.1/second", "3.0/note"])
        #expect(result.report.from == Version("1.0"))
    }
}
