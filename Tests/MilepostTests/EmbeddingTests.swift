import Milepost
import MilepostTestSupport
import Synchronization
import Testing

/// An application driving Milepost from Swift: validate, plan and run, each with a structured result.
@Suite struct EmbeddingTests {
    static let yaml = """
        app: notes
        baseline: "2.0"
        migrations:
          2.1:
            - removeEmptyNotes
          2.7:
            - name: archiveNotes
              with: {olderThan: 30s}
        """

    struct Archive: Decodable, Sendable { var olderThan: Duration }

    final class App: Sendable {
        let ran = Mutex<[String]>([])

        var registry: StepRegistry {
            var registry = StepRegistry()
            registry.register("removeEmptyNotes") { context in self.ran.withLock { $0.append(context.id) } }
            registry.register("archiveNotes", parameters: Archive.self) { context in
                self.ran.withLock { $0.append("\(context.id) \(context.parameters.olderThan)") }
            }
            return registry
        }
    }

    @Test func validateReturnsLocatedDiagnostics() throws {
        let app = App()
        let broken = ManifestSource(path: "notes.yaml", bytes: Array("migrations:\n  2.1: [removeEmptyNote]\n  2.7:\n    - name: archiveNotes\n      with: {olderThan: later}\n".utf8))
        guard case .failure(.invalid(let diagnostics, let source)) = Result(catching: { () throws(ManifestError) in try Manifest.parse(broken, registry: app.registry) }) else {
            Issue.record("the manifest should be invalid")
            return
        }
        #expect(source.path == "notes.yaml")
        #expect(diagnostics.map(\.severity) == [.error, .error])
        #expect(diagnostics.map { "\($0.file):\($0.location?.description ?? "-")" } == ["notes.yaml:2:9", "notes.yaml:5:25"])
        #expect(diagnostics.first?.notes.map(\.message) == ["did you mean 'removeEmptyNotes'?"])
        let valid = try Manifest.parse(ManifestSource(path: "notes.yaml", bytes: Array(Self.yaml.utf8)), registry: app.registry)
        #expect(valid.steps.map(\.id) == ["2.1/removeEmptyNotes", "2.7/archiveNotes"])
        #expect(valid.warnings.isEmpty)
    }

    @Test func planRunAndRunAgainReportWhatHappened() async throws {
        let app = App()
        let fixture = try RunnerFixture()
        let manifest = try fixture.manifest(Self.yaml, registry: app.registry)
        let runner = Runner(store: fixture.store)

        let plan = try await runner.plan(manifest, to: "2.1")
        #expect(plan.origin == .baseline)
        #expect(plan.entries.map { "\($0.step.id) \($0.status.rawValue)" } == ["2.1/removeEmptyNotes pending", "2.7/archiveNotes above-target"])
        #expect(try await fixture.state() == nil)

        let first = try await runner.run(to: "2.1") { manifest }
        #expect(first.outcome == .succeeded)
        #expect(first.steps.map { "\($0.id) \($0.status.rawValue) \($0.attempts)" } == ["2.1/removeEmptyNotes succeeded 1"])
        #expect((first.from.text, first.to.text, first.app) == ("2.0", "2.1", "notes"))

        let again = try await runner.run(to: "2.1") { manifest }
        #expect(again.outcome == .upToDate)
        #expect(again.steps.isEmpty)

        let later = try await runner.run(to: "2.7") { manifest }
        #expect(later.steps.map(\.id) == ["2.7/archiveNotes"])
        #expect(app.ran.withLock { $0 } == ["2.1/removeEmptyNotes", "2.7/archiveNotes 30.0 seconds"])
        #expect(try await fixture.state()?.completed.map(\.id) == ["2.1/removeEmptyNotes", "2.7/archiveNotes"])
    }

    enum NotesError: Error, Equatable, CustomStringConvertible {
        case diskFull(neededBytes: Int)
        var description: String {
            switch self { case .diskFull(let needed): "the disk is full (\(needed) bytes needed)" }
        }
    }

    /// A step's thrown error comes back to the app as its own value (`underlying`), besides the
    /// words the journal keeps: the app matches its own type. With retries, the last attempt's.
    @Test func aStepsOwnErrorComesBackAsItsValue() async throws {
        let fixture = try RunnerFixture()
        let attempts = Mutex(0)
        var registry = StepRegistry()
        registry.register("archiveNotes") { _ in
            throw NotesError.diskFull(neededBytes: attempts.withLock { $0 += 1; return $0 } * 100)
        }
        let manifest = try fixture.manifest("migrations:\n  \"2.1\": [{name: archiveNotes, retries: 1}]\n", registry: registry)
        var options = RunOptions()
        options.retryDelay = .zero
        let report = try await Runner(store: fixture.store, options: options).run(to: "2.1") { manifest }
        #expect(report.outcome == .failed)
        let failed = try #require(report.steps.first { $0.status == .failed })
        #expect(failed.attempts == 2)
        #expect(failed.underlying as? NotesError == .diskFull(neededBytes: 200))
        do {
            throw try #require(failed.underlying)
        } catch NotesError.diskFull(let needed) {
            #expect(needed == 200)
        }
        #expect(failed.error == "the disk is full (200 bytes needed)")
        #expect(try await fixture.state()?.failed?.error == "the disk is full (200 bytes needed)")

        let succeeded = try await Runner(store: fixture.store).run(to: "2.1") {
            var registry = StepRegistry()
            registry.register("archiveNotes") { _ in }
            return try fixture.manifest("migrations:\n  \"2.1\": [{name: archiveNotes, retries: 1}]\n", registry: registry)
        }
        #expect(succeeded.steps.map(\.status) == [.succeeded])
        #expect(succeeded.steps.first?.underlying == nil)
    }
}
