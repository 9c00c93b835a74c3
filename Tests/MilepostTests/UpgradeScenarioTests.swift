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

    /// The tags of the steps that ran, in order.
    final class Tags: Sendable {
        let list = Mutex<[String]>([])
        var all: [String] { list.withLock { $0 } }
    }

    /// A registry whose `note` step (idempotent) records its tag, and whose `once` step (not idempotent) does too.
    static func registry(recording tags: Tags) -> StepRegistry {
        var registry = StepRegistry()
        registry.register("note", parameters: Tag.self, idempotent: true) { context in
            tags.list.withLock { $0.append(context.parameters.tag) }
        }
        registry.register("once", parameters: Tag.self) { context in tags.list.withLock { $0.append(context.parameters.tag) } }
        return registry
    }

    @Test func aStoreSeededAt20RunsOnlyTheStepsAboveItInOrderWithTheirParameters() async throws {
        let tags = Tags()
        let scenario = try await UpgradeScenario(manifest: Self.manifest, registry: Self.registry(recording: tags), seededAt: "2.0")
        let result = try await scenario.run(to: "2.1")
        #expect(result.report.outcome == .succeeded)
        #expect(result.ran == ["2.1/first", "2.1/second"])
        #expect(tags.all == ["a", "b"])
        #expect(result.state?.version == "2.1")
        #expect(result.state?.completed.map(\.id) == ["2.1/first", "2.1/second"])
        #expect(result.journal.first?.event == .runStarted && result.journal.last?.outcome?.rawValue == "succeeded")
        #expect(result.journal.compactMap(\.step) == ["2.1/first", "2.1/first", "2.1/second", "2.1/second"])

        let directory = scenario.directory
        #expect(FileManager.default.fileExists(atPath: directory + "/store/state.json"))
    }

    /// The scenario records each call of a step's body with its parameters: no step needs to record
    /// them itself, and a retried attempt is a second call.
    @Test func eachCallIsRecordedWithTheParametersTheStepWasGiven() async throws {
        let attempts = Mutex(0)
        var registry = StepRegistry()
        registry.register("note", parameters: Tag.self) { _ in }
        registry.register("flaky", parameters: Tag.self) { _ in
            if attempts.withLock({ $0 += 1; return $0 }) == 1 { throw CancellationError() }
        }
        let manifest = """
            migrations:
              2.1: [{name: note, id: first, with: {tag: a}}, {name: flaky, id: second, retries: 1, with: {tag: b}}]
            """
        var options = RunOptions()
        options.retryDelay = .zero
        let result = try await UpgradeScenario(manifest: manifest, registry: registry, seededAt: "2.0")
            .run(to: "2.1", options: options)
        #expect(result.report.outcome == .succeeded)
        #expect(result.calls.map(\.id) == ["2.1/first", "2.1/second", "2.1/second"])
        #expect(result.calls.map { ($0.parameters as? Tag)?.tag } == ["a", "b", "b"])
    }

    @Test func aFreshStoreRunsFromTheManifestsBaseline() async throws {
        let result = try await UpgradeScenario(manifest: Self.manifest, registry: Self.registry(recording: Tags()))
            .run(to: "3.0")
        #expect(result.ran == ["2.0/note", "2.1/first", "2.1/second", "3.0/note"])
        #expect(result.report.from == "1.0")
    }

    @Test func seededCompletedStepsDoNotRunAgainAndDoNotDrift() async throws {
        let tags = Tags()
        let scenario = try await UpgradeScenario(
            manifest: Self.manifest, registry: Self.registry(recording: tags), seededAt: "2.0",
            completed: ["2.1/first"])
        let seeded = try #require(try await scenario.store.readState())
        #expect(seeded.version == "2.0")
        #expect(seeded.completed.map(\.id) == ["2.1/first"])

        let result = try await scenario.run(to: "3.0")
        #expect(result.ran == ["2.1/second", "3.0/note"])
        #expect(tags.all == ["b", "three"])
        #expect(result.state?.completed.map(\.id) == ["2.1/first", "2.1/second", "3.0/note"])
        let status = try await Runner(store: scenario.store).status(manifest: try scenario.manifest(), to: "3.0")
        #expect(status.drift.isEmpty)
        #expect(status.verdict == .ok)

        await #expect(throws: UpgradeScenarioError.unknownStep("9/nope")) {
            _ = try await UpgradeScenario(manifest: Self.manifest, registry: Self.registry(recording: Tags()), completed: ["9/nope"])
        }
    }

    @Test func aManifestFileIsCopiedWithItsDataAndTheOriginalsAreNotTouched() async throws {
        let source = FileManager.default.temporaryDirectory.appendingPathComponent("scenario-source-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: source, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: source) }
        try "migrations:\n  \"1\": [{name: exec, id: append, with: {command: [sh, -c, 'echo ran >> data.txt']}}]\n"
            .write(toFile: source + "/app.yaml", atomically: false, encoding: .utf8)
        try "original\n".write(toFile: source + "/data.txt", atomically: false, encoding: .utf8)

        let scenario = try await UpgradeScenario(
            manifestFile: source + "/app.yaml", copying: [source + "/data.txt"], registry: .standard)
        let result = try await scenario.run(to: "1")
        #expect(result.ran == ["1/append"])
        #expect(try String(contentsOfFile: scenario.directory + "/data.txt", encoding: .utf8) == "original\nran\n")
        #expect(try String(contentsOfFile: source + "/data.txt", encoding: .utf8) == "original\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: source).sorted() == ["app.yaml", "data.txt"])
    }

    @Test func interruptingAtAStepLeavesItInProgressAndTheNextRunStopsAtItUnlessIdempotent() async throws {
        let tags = Tags()
        let scenario = try await UpgradeScenario(manifest: """
            migrations:
              "1":
                - {name: once, id: a, with: {tag: a}}
                - {name: once, id: b, with: {tag: b}}
                - {name: once, id: c, with: {tag: c}}
            """, registry: Self.registry(recording: tags))
        let interrupted = try await scenario.run(to: "1", interruptingAt: "1/b")
        #expect(interrupted.report.outcome == .interrupted)
        #expect(interrupted.ran == ["1/a"])
        #expect(tags.all == ["a"])
        #expect(interrupted.state?.inProgress?.id == "1/b")
        #expect(interrupted.journal.suffix(2).map(\.event) == [.stepInterrupted, .runFinished])
        #expect(try await scenario.store.lockHolder() == nil)

        let next = try await scenario.run(to: "1")
        #expect(next.report.outcome == .blocked)
        #expect(next.report.interrupted?.id == "1/b")
        #expect(next.ran == [])

        await #expect(throws: UpgradeScenarioError.stepNeverStarted("1/a", outcome: .blocked)) {
            _ = try await scenario.run(to: "1", interruptingAt: "1/a")
        }
    }

    // The example of docs/library.md, "Testing upgrades" (kept identical by the test below it).
    @Test func anInterruptedIdempotentStepRunsAgainOnTheNextLaunch() async throws {
        struct Tag: Decodable, Sendable { var tag: String }
        let ran = Mutex<[String]>([])
        var registry = StepRegistry()
        registry.register("note", parameters: Tag.self, idempotent: true) { context in
            ran.withLock { $0.append(context.parameters.tag) }
        }
        let manifest = """
            app: shop
            migrations:
              "2.1": [{name: note, id: first, with: {tag: a}}]
              "2.7": [{name: note, id: reindex, with: {tag: b}}, {name: note, id: notify, with: {tag: c}}]
            """

        // A store at 2.1, as users of the previous release have it.
        let scenario = try await UpgradeScenario(manifest: manifest, registry: registry, seededAt: "2.1")
        // The app is killed while 2.7/reindex runs: the store records it as interrupted.
        let killed = try await scenario.run(to: "2.7", interruptingAt: "2.7/reindex")
        #expect(killed.report.outcome == .interrupted)
        #expect(killed.state?.inProgress?.id == "2.7/reindex")

        // The next launch runs it again (it is idempotent), then the rest, in order.
        let next = try await scenario.run(to: "2.7")
        #expect(next.report.outcome == .succeeded)
        #expect(next.ran == ["2.7/reindex", "2.7/notify"])
        #expect(ran.withLock { $0 } == ["b", "c"])
        #expect(next.state?.version == "2.7")
        #expect(next.state?.completed.map(\.id) == ["2.7/reindex", "2.7/notify"])
    }

    struct Column: Decodable, Sendable { var column: String }

    /// A registry whose `addColumn` step appends its column to `schema.txt` beside the manifest.
    static let schemaSteps = {
        var registry = StepRegistry()
        registry.register("addColumn", parameters: Column.self) { context in
            let file = context.manifestDirectory + "/schema.txt"
            let schema = try String(contentsOfFile: file, encoding: .utf8)
            try (schema + context.parameters.column + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        }
        return registry
    }()

    /// Writes `columns` as `schema.txt` in the scenario's directory.
    static func writeSchema(_ columns: [String], in scenario: UpgradeScenario) throws {
        try columns.map { $0 + "\n" }.joined().write(toFile: scenario.directory + "/schema.txt", atomically: true, encoding: .utf8)
    }

    /// The columns of the scenario's `schema.txt`, sorted.
    static func schema(in scenario: UpgradeScenario) throws -> [String] {
        try String(contentsOfFile: scenario.directory + "/schema.txt", encoding: .utf8).split(separator: "\n").map(String.init).sorted()
    }

    // The example of docs/library.md, "Every upgrade path ends where a fresh install starts".
    @Test func upgradesFrom10And20EndWhereAFresh30Starts() async throws {
        // The schema each release creates at its first launch.
        let created: [Version: [String]] = ["1.0": ["notes"], "2.0": ["notes", "tags"], "3.0": ["notes", "tags", "index"]]
        let manifest = """
            baseline: "1.0"
            migrations:
              "2.0": [{name: addColumn, with: {column: tags}}]
              "3.0": [{name: addColumn, with: {column: index}}]
            """
        var options = RunOptions()
        options.freshInstall = .record   // a fresh 3.0 creates its schema and runs no step

        let paths = UpgradePaths(manifest: manifest, registry: Self.schemaSteps)
        let comparisons = try await paths.compare(from: ["1.0", "2.0"], to: "3.0", options: options) { scenario, installedAt in
            // A host installed at 1.0 or 2.0 has that release's schema; a fresh install, 3.0's.
            try Self.writeSchema(created[installedAt ?? "3.0"]!, in: scenario)
        } appState: { scenario in
            try Self.schema(in: scenario)
        }
        #expect(comparisons.map(\.matches) == [true, true], "\(comparisons)")
        #expect(comparisons.map(\.result.ran) == [["2.0/addColumn", "3.0/addColumn"], ["3.0/addColumn"]])
        #expect(comparisons[0].upgrade.app == ["index", "notes", "tags"])
        #expect(comparisons[0].fresh.completed == [])
    }

    /// A fresh install that runs every step (`.runAll`, from the baseline's schema) records the
    /// same completed steps as each upgrade, whose store starts with the steps up to its version
    /// recorded as done; those steps do not run again.
    @Test func withRunAllTheCompletedStepsAreComparedToo() async throws {
        let manifest = """
            baseline: "1.0"
            migrations:
              "2.0": [{name: addColumn, with: {column: tags}}]
              "2.5": [{name: addColumn, with: {column: archived}, when: upgrade}]
              "3.0": [{name: addColumn, with: {column: index}}]
            """
        let created: [Version: [String]] = ["1.0": ["notes"], "2.0": ["notes", "tags"], "2.5": ["archived", "notes", "tags"]]
        let comparisons = try await UpgradePaths(manifest: manifest, registry: Self.schemaSteps)
            .compare(from: ["2.0", "2.5"], to: "3.0") { scenario, installedAt in
                try Self.writeSchema(created[installedAt ?? "1.0"]!, in: scenario)
            } appState: { scenario in
                try Self.schema(in: scenario).filter { $0 != "archived" }
            }
        #expect(comparisons.map(\.differences) == [[], []], "\(comparisons)")
        #expect(comparisons.map(\.upgrade.completed) == [["2.0/addColumn", "3.0/addColumn"], ["2.0/addColumn", "3.0/addColumn"]])
        #expect(comparisons.map(\.result.ran) == [["2.5/addColumn", "3.0/addColumn"], ["3.0/addColumn"]])
        #expect(comparisons[0].fresh.completed == ["2.0/addColumn", "3.0/addColumn"])
    }

    /// A release whose fresh schema has a column no step adds, and a required stop that refuses
    /// 1.0 → 3.0: each path says how it differs, and `verify` throws them all.
    @Test func aPathThatDiffersSaysHow() async throws {
        let manifest = """
            baseline: "1.0"
            stops: ["2.0"]
            migrations:
              "2.0": [{name: addColumn, with: {column: tags}}]
              "3.0": [{name: addColumn, with: {column: index}}]
            """
        let created: [Version: [String]] = ["1.0": ["notes"], "2.0": ["notes", "tags"], "3.0": ["archived", "index", "notes", "tags"]]
        var options = RunOptions()
        options.freshInstall = .record
        let paths = UpgradePaths(manifest: manifest, registry: Self.schemaSteps)
        func prepare(_ scenario: UpgradeScenario, _ installedAt: Version?) throws {
            try Self.writeSchema(created[installedAt ?? "3.0"]!, in: scenario)
        }
        let comparisons = try await paths.compare(from: ["1.0", "2.0"], to: "3.0", options: options, prepare: prepare) {
            try Self.schema(in: $0)
        }
        #expect(comparisons[0].differences == [
            .outcome(.stopRequired), .version(upgrade: "1.0", fresh: "3.0"), .owed(upgrade: ["2.0/addColumn", "3.0/addColumn"], fresh: []),
            .app(upgrade: #"["notes"]"#, fresh: #"["archived", "index", "notes", "tags"]"#),
        ])
        #expect(comparisons[1].differences == [.app(upgrade: #"["index", "notes", "tags"]"#, fresh: #"["archived", "index", "notes", "tags"]"#)])
        #expect(comparisons[1].description == #"2.0 → 3.0 differs from a fresh install of 3.0: the app's state after the upgrade is ["index", "notes", "tags"], after the fresh install ["archived", "index", "notes", "tags"]"#)

        do {
            try await paths.verify(from: ["2.0"], to: "3.0", options: options, prepare: prepare) { try Self.schema(in: $0) }
            Issue.record("verify should throw")
        } catch let mismatch as UpgradePathMismatch {
            #expect(mismatch.paths.map(\.from) == ["2.0"])
            #expect(mismatch.description == comparisons[1].description)
        }
        try await paths.verify(from: ["2.0"], to: "2.0", options: options, prepare: prepare) { _ in 0 }

        var failing = StepRegistry()
        failing.register("addColumn", parameters: Column.self) { _ in throw CancellationError() }
        await #expect(throws: UpgradeScenarioError.freshInstallFailed(outcome: .failed)) {
            _ = try await UpgradePaths(manifest: manifest, registry: failing).compare(from: ["2.0"], to: "3.0") { _ in 0 }
        }
    }

    /// Every Swift block of docs/library.md that names this file is a piece of it, character for
    /// character (after removing its indentation): the documented examples compile and pass.
    @Test func theLibraryPagesExamplesAreInThisFile() throws {
        let here = URL(fileURLWithPath: #filePath)
        let repository = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let page = try String(contentsOf: repository.appendingPathComponent("docs/library.md"), encoding: .utf8)
        let source = Self.dedentedLines(try String(contentsOf: here, encoding: .utf8))
        let blocks = page.components(separatedBy: "```swift\n// Tests/MilepostTests/UpgradeScenarioTests.swift\n").dropFirst()
            .map { Self.dedentedLines($0.components(separatedBy: "\n```")[0]) }
        #expect(!blocks.isEmpty)
        for block in blocks {
            let found = source.indices.contains { start in Array(source.dropFirst(start).prefix(block.count)) == block }
            #expect(found, "docs/library.md shows code that is not in UpgradeScenarioTests.swift:\n\(block.joined(separator: "\n"))")
        }
    }

    private static func dedentedLines(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
    }
}
