import Logging
import Milepost
import MilepostTestSupport
import Synchronization
import Testing

/// What a step's context carries at run time: its logger's metadata and cancellation.
@Suite struct RegistryContextTests {
    /// Keeps every message logged through it, with the merged metadata.
    struct CapturingLogHandler: LogHandler {
        final class Sink: Sendable {
            let entries = Mutex<[(message: String, metadata: Logger.Metadata)]>([])
        }

        let sink: Sink
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            sink.entries.withLock { $0.append(("\(event.message)", metadata.merging(event.metadata ?? [:]) { $1 })) }
        }
    }

    @Test func theLoggerCarriesTheStepAndRunIds() async throws {
        let fixture = try RunnerFixture()
        var registry = StepRegistry()
        registry.register("chatty") { context in
            context.logger.info("hello from the step", metadata: ["rows": "3"])
        }
        let manifest = try fixture.manifest("migrations:\n  2.1:\n    - name: chatty\n      id: talk\n", registry: registry)
        let sink = CapturingLogHandler.Sink()
        let logger = Logger(label: "test") { _ in CapturingLogHandler(sink: sink) }
        let report = try await Runner(store: fixture.store, logger: logger).run(to: Version("2.1")) { manifest }
        let entry = try #require(sink.entries.withLock { $0 }.first { $0.message == "hello from the step" })
        #expect(entry.metadata["step"] == "2.1/talk")
        #expect(entry.metadata["run"] == .string(try #require(report.run)))
        #expect(entry.metadata["rows"] == "3")
    }

    @Test func aTimeoutCancelsTheStepsTask() async throws {
        let fixture = try RunnerFixture()
        let sawCancellation = Mutex(false)
        var registry = StepRegistry()
        registry.register("patient") { _ in
            do {
                try await Task.sleep(for: .seconds(60))
            } catch is CancellationError {
                sawCancellation.withLock { $0 = true }
                throw CancellationError()
            }
        }
        let manifest = try fixture.manifest("migrations:\n  1:\n    - name: patient\n      timeout: 50ms\n", registry: registry)
        // Without the cancellation the step would sleep its 60 s out and succeed.
        let report = try await fixture.run(manifest, to: "1") { $0.terminationGrace = .seconds(30) }
        #expect(sawCancellation.withLock { $0 })
        #expect(report.outcome == .failed)
        #expect(report.steps.first?.error == "timed out after 50ms")
    }

    @Test func aStepThatChecksBetweenUnitsStopsAtTheNextCheck() async throws {
        let fixture = try RunnerFixture()
        let progress = Mutex((batches: 0, stopped: false))
        var registry = StepRegistry()
        registry.register("batches") { _ in
            do {
                while true {
                    try Task.checkCancellation()
                    progress.withLock { $0.batches += 1 }
                    await Task.yield()
                }
            } catch {
                progress.withLock { $0.stopped = true }
                throw error
            }
        }
        let manifest = try fixture.manifest("migrations:\n  1:\n    - name: batches\n      timeout: 20ms\n", registry: registry)
        let report = try await fixture.run(manifest, to: "1") { $0.terminationGrace = .seconds(30) }
        #expect(report.outcome == .failed)
        #expect(report.steps.first?.error == "timed out after 20ms")
        #expect(progress.withLock { $0.batches > 0 && $0.stopped })
        #expect(try await fixture.state()?.failed?.id == "1/batches")
    }
}
