import Foundation
import Milepost
import MilepostTestSupport
import MilepostTesting
import Synchronization
import Testing

/// Steps that get the app's dependencies: a `DependentStepPlugin` installed with a value the app
/// has at run time (here its data directory), so the steps work where the app's data is, not
/// where the manifest is; the testing kit builds that registry per scenario.
@Suite struct DependentStepPluginTests {
    /// The app's data, as the app opens it at launch.
    struct Notes: Sendable {
        let directory: String
        var file: String { directory + "/notes.txt" }

        func read() throws -> String { try String(contentsOfFile: file, encoding: .utf8) }
        func append(_ line: String) throws {
            let text = ((try? read()) ?? "") + line + "\n"
            try text.write(toFile: file, atomically: true, encoding: .utf8)
        }
    }

    enum NotesSteps: DependentStepPlugin {
        static let namespace: String? = "notes"
        static func register(in registry: inout StepRegistry, using notes: Notes) {
            registry.register("stamp") { context in try notes.append(context.id) }
        }
    }

    static let yaml = """
        migrations:
          "2.1": [notes:stamp]
          "2.7": [{name: notes:stamp, id: again}]
        """

    @Test func stepsWorkOnTheDirectoryTheAppGivesThemNotTheManifests() async throws {
        let fixture = try RunnerFixture()
        let data = fixture.scratch.root + "/data"
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: false)
        let registry = StepRegistry().installing(NotesSteps.self, using: Notes(directory: data))
        #expect(registry.all.map(\.name) == ["notes:stamp"])
        #expect(registry["notes:stamp"]?.plugin == "NotesSteps")
        let manifest = try fixture.manifest(Self.yaml, registry: registry)
        #expect(manifest.directory != data)

        try await Runner(store: FileStore(path: data + "/.milepost")).migrate(to: "2.7") { manifest }
        #expect(try Notes(directory: data).read() == "2.1/notes:stamp\n2.7/again\n")
        #expect(!FileManager.default.fileExists(atPath: manifest.directory + "/notes.txt"))
    }

    @Test func aScenarioBuildsItsRegistryForItsOwnDirectory() async throws {
        let scenario = try await UpgradeScenario(manifest: Self.yaml, seededAt: "2.1") { directory in
            StepRegistry().installing(NotesSteps.self, using: Notes(directory: directory))
        }
        let result = try await scenario.run(to: "2.7")
        #expect(result.ran == ["2.7/again"])
        #expect(try Notes(directory: scenario.directory).read() == "2.7/again\n")
    }

    /// Every path and the fresh install get their own directory, and steps that write there.
    @Test func everyUpgradePathGetsItsOwnRegistry() async throws {
        let directories = DirectoryLog()
        let paths = UpgradePaths(manifest: Self.yaml) { directory in
            directories.add(directory)
            return StepRegistry().installing(NotesSteps.self, using: Notes(directory: directory))
        }
        let comparisons = try await paths.compare(from: ["2.1"], to: "2.7") { scenario in
            (try? Notes(directory: scenario.directory).read())?.split(separator: "\n").last.map(String.init)
        }
        #expect(comparisons.map(\.matches) == [true])
        #expect(comparisons.first?.upgrade.app == "2.7/again")
        #expect(Set(directories.all).count == 2)  // the fresh install's and the path's
    }

    /// What each scenario's registry was built for.
    final class DirectoryLog: Sendable {
        private let directories = Mutex<[String]>([])
        func add(_ directory: String) { directories.withLock { $0.append(directory) } }
        var all: [String] { directories.withLock { $0 } }
    }
}
