import Foundation
import Milepost
import MilepostTestSupport
import Synchronization
import Testing

/// A Swift step's cursor: `context.commitCursor` is durable in the store when it returns, and the
/// step's next attempt (a retry, or the next run) gets it as `context.resumeCursor`.
@Suite struct StepCursorTests {
    struct Broken: Error, CustomStringConvertible {
        var description: String { "broken after its cursor" }
    }

    @Test func aCommittedCursorIsInTheStoreWhenTheCallReturnsAndTheNextRunResumesAtIt() async throws {
        let fixture = try RunnerFixture()
        let seen = Mutex<[String?]>([])
        let storedDuringTheStep = Mutex<String?>(nil)
        let fail = Mutex(true)
        var registry = StepRegistry()
        registry.register("batches") { [store = fixture.store] context in
            seen.withLock { $0.append(context.resumeCursor) }
            try await context.commitCursor("batch-7")
            // Read by another store value, as another process would: the commit is already there.
            let state = try await FileStore(path: store.location).readState()
            storedDuringTheStep.withLock { $0 = state?.inProgress?.cursor }
            if fail.withLock({ $0 }) { throw Broken() }
        }
        let manifest = try fixture.manifest("migrations:\n  1:\n    - batches\n", registry: registry)

        let first = try await fixture.run(manifest, to: "1")
        #expect(first.outcome == .failed)
        #expect(storedDuringTheStep.withLock { $0 } == "batch-7")
        let failed = try #require(try await fixture.state()?.failed)
        #expect(failed.cursor == "batch-7")
        #expect(failed.error == "broken after its cursor")

        fail.withLock { $0 = false }
        let second = try await fixture.run(manifest, to: "1")
        #expect(second.outcome == .succeeded)
        #expect(seen.withLock { $0 } == [nil, "batch-7"])
        let state = try #require(try await fixture.state())
        #expect(state.failed == nil && state.inProgress == nil)
        let started = try await fixture.journal().filter { $0.event == .stepStarted }
        #expect(started.map(\.cursor) == [nil, "batch-7"])
    }

    @Test func aRetryResumesAtTheCursorOfTheAttemptBefore() async throws {
        let fixture = try RunnerFixture()
        let seen = Mutex<[String?]>([])
        var registry = StepRegistry()
        registry.register("batches") { context in
            seen.withLock { $0.append(context.resumeCursor) }
            try await context.commitCursor("after-\(context.attempt)")
            if context.attempt == 1 { throw Broken() }
        }
        let manifest = try fixture.manifest("migrations:\n  1:\n    - name: batches\n      retries: 1\n", registry: registry)
        let report = try await fixture.run(manifest, to: "1")
        #expect(report.outcome == .succeeded)
        #expect(seen.withLock { $0 } == [nil, "after-1"])
    }

    @Test func aCursorOver4KiBIsRefused() async throws {
        let fixture = try RunnerFixture()
        var registry = StepRegistry()
        registry.register("huge") { context in
            try await context.commitCursor(String(repeating: "é", count: 2049))
        }
        let manifest = try fixture.manifest("migrations:\n  1:\n    - huge\n", registry: registry)
        let report = try await fixture.run(manifest, to: "1")
        #expect(report.outcome == .failed)
        #expect(report.steps.first?.error == "a cursor is at most 4096 bytes (UTF-8), and this one has 4098")
        #expect(try await fixture.state()?.failed?.cursor == nil)
    }

    /// The pattern docs/library.md shows: work in units, commit a cursor after each, and on
    /// cancellation (here a timeout) commit where it stopped; the next run resumes exactly there.
    @Test func aStepThatCommitsItsCursorOnCancellationResumesExactlyThere() async throws {
        let fixture = try RunnerFixture()
        let units = RunnerFixture.Units(1000, pauseAfter: 3)
        var registry = StepRegistry()
        registry.register("units", resumable: true, units.body)
        let manifest = try fixture.manifest("migrations:\n  1:\n    - name: units\n      timeout: 100ms\n", registry: registry)
        let first = try await fixture.run(manifest, to: "1") { $0.terminationGrace = .seconds(30) }
        #expect(first.outcome == .failed)
        #expect(try await fixture.state()?.failed?.cursor == "3")

        units.paused.withLock { $0 = false }
        let second = try await fixture.run(manifest, to: "1")
        #expect(second.outcome == .succeeded)
        #expect(units.done.withLock { $0 } == Array(1...1000))
    }

    @Test func aResumableRegistrationMakesTheManifestStepResumable() throws {
        let fixture = try RunnerFixture()
        var registry = StepRegistry()
        registry.register("units", resumable: true) { _ in }
        registry.register("plain") { _ in }
        let manifest = try fixture.manifest(
            "migrations:\n  1:\n    - units\n    - plain\n    - {name: plain, id: other, resumable: true}\n", registry: registry)
        #expect(manifest.steps.map(\.resumable) == [true, false, true])
    }

    @Test func resumableMustBeABoolean() throws {
        let fixture = try RunnerFixture()
        #expect {
            _ = try fixture.manifest("migrations:\n  1:\n    - {name: exec, resumable: maybe, with: {command: [true]}}\n")
        } throws: { error in
            guard case ManifestError.invalid(let diagnostics, _) = error else { return false }
            return diagnostics.map(\.message) == ["invalid resumable 'maybe': expected true or false"]
        }
    }
}

/// `context.reportProgress`: every report reaches `RunOptions.onProgress`; the store gets the
/// first at once and then at most one per `progressInterval`.
@Suite struct StepProgressTests {
    @Test func reportsAreThrottledForTheStoreButNotForTheTerminal() async throws {
        let fixture = try RunnerFixture()
        let seen = Mutex<[Int]>([])
        let stored = Mutex<StepProgress?>(nil)
        var registry = StepRegistry()
        registry.register("counting") { [store = fixture.store] context in
            for done in 1...50 { await context.reportProgress(done, of: 50, message: "item \(done)") }
            let state = try await FileStore(path: store.location).readState()
            stored.withLock { $0 = state?.inProgress?.progress }
        }
        let manifest = try fixture.manifest("migrations:\n  1:\n    - counting\n", registry: registry)
        let report = try await fixture.run(manifest, to: "1") { options in
            options.progressInterval = .seconds(3600)
            options.onProgress = { event in
                if case .stepProgress(_, let progress) = event { seen.withLock { $0.append(progress.completed) } }
            }
        }
        #expect(report.outcome == .succeeded)
        #expect(seen.withLock { $0 } == Array(1...50))
        let first = try #require(stored.withLock { $0 })
        #expect(first.completed == 1 && first.total == 50 && first.message == "item 1")
        let records = try await fixture.journal().filter { $0.event == .stepProgress }
        #expect(records.map(\.completed) == [1])
        #expect(try await fixture.state()?.inProgress == nil)
    }

    @Test func aCursorCommitWritesTheLatestProgressToo() async throws {
        let fixture = try RunnerFixture()
        let stored = Mutex<StepProgress?>(nil)
        var registry = StepRegistry()
        registry.register("counting") { [store = fixture.store] context in
            for done in 1...10 { await context.reportProgress(done, of: 10) }
            try await context.commitCursor("10")
            let state = try await FileStore(path: store.location).readState()
            stored.withLock { $0 = state?.inProgress?.progress }
        }
        let manifest = try fixture.manifest("migrations:\n  1:\n    - counting\n", registry: registry)
        let report = try await fixture.run(manifest, to: "1") { $0.progressInterval = .seconds(3600) }
        #expect(report.outcome == .succeeded)
        #expect(stored.withLock { $0 }?.completed == 10)
    }

    @Test func aProgressLineOfAnExecStepIsParsed() async throws {
        let fixture = try RunnerFixture()
        let seen = Mutex<[String]>([])
        let manifest = try fixture.manifest("""
            migrations:
              1:
                - {name: exec, with: {command: [sh, -c, 'echo "progress 3/9 a b" >&3; echo "progress x/9" >&3; echo "progress 9/9" >&3']}}
            """)
        let report = try await fixture.run(manifest, to: "1") { options in
            options.progressInterval = .zero
            options.onProgress = { event in
                if case .stepProgress(_, let progress) = event {
                    seen.withLock { $0.append("\(progress.completed)/\(progress.total ?? -1) \(progress.message ?? "-")") }
                }
            }
        }
        #expect(report.outcome == .succeeded)
        #expect(seen.withLock { $0 } == ["3/9 a b", "9/9 -"])
        #expect(try await fixture.journal().filter { $0.event == .stepProgress }.map(\.completed) == [3, 9])
    }
}
