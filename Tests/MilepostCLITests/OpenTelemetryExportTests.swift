import Foundation
import Testing

// The export needs milepost-otel built with the exporter: `swift test --traits OpenTelemetry` (CI).
#if OpenTelemetry

/// The stock binary's export (`MilepostOTel`) against a real OTLP/HTTP receiver: the run span with
/// its attributes, one span per step attempt under it, the lock span, the metrics, the
/// `TRACEPARENT` an `exec` child receives, and a collector that never answers.
@Suite(.enabled(if: OTLPReceiver.isConfigured, OTLPReceiver.missing))
struct OpenTelemetryExportTests {
    static let parentTraceID = "4bf92f3577b34da6a3ce929d0e0e4736"
    static let parentSpanID = "00f067aa0ba902b7"

    /// `first` writes its TRACEPARENT to traceparent.txt; `flaky` fails its first attempt (`retries: 1`).
    static let manifest = """
        app: shop
        migrations:
          2.0:
            - name: exec
              id: first
              with: {command: [sh, -c, 'printf %s "$TRACEPARENT" > traceparent.txt']}
            - name: exec
              id: flaky
              retries: 1
              with: {command: [sh, -c, 'if [ -e tried ]; then exit 0; fi; touch tried; exit 3']}
        """

    static func exporting(to receiver: OTLPReceiver, in work: WorkDirectory) -> MilepostBinary {
        var milepost = work.milepost
        milepost.environment = [
            "OTEL_EXPORTER_OTLP_ENDPOINT": receiver.endpoint,
            "OTEL_EXPORTER_OTLP_PROTOCOL": "http/protobuf",
            "OTEL_SERVICE_NAME": "shop-migrations",
            "OTEL_RESOURCE_ATTRIBUTES": "deployment.environment=test",
        ]
        return milepost
    }

    @Test func theRunItsStepAttemptsAndItsLockAreSpansOfTheCallersTrace() throws {
        let work = try WorkDirectory()
        try work.write(Self.manifest, to: "milepost.yaml")
        let receiver = try OTLPReceiver(in: work)
        var milepost = Self.exporting(to: receiver, in: work)
        milepost.environment["TRACEPARENT"] = "00-\(Self.parentTraceID)-\(Self.parentSpanID)-01"
        let result = try milepost.run("run", "--to", "2.0")
        #expect(result.status == 0, "\(result.stderr)")

        let (resource, spans) = try receiver.spans()
        #expect(resource["service.name"] == "shop-migrations")
        #expect(resource["deployment.environment"] == "test")
        let run = try #require(spans.first { $0.name == "milepost.run" }, "\(spans.map(\.name))")
        #expect(run.traceID == Self.parentTraceID)
        #expect(run.parentSpanID == Self.parentSpanID)
        #expect(run.attributes["milepost.app"] == "shop")
        #expect(run.attributes["milepost.to"] == "2.0")
        #expect(run.attributes["milepost.from"] == "0")
        #expect(run.attributes["milepost.store.kind"] == "file")
        #expect(run.attributes["milepost.outcome"] == "succeeded")
        let journal = try work.read(".milepost/journal.jsonl")
        let runID = try #require(run.attributes["milepost.run.id"])
        #expect(journal.contains("\"run\":\"\(runID)\""))

        let steps = spans.filter { $0.name == "milepost.step" }
        #expect(steps.map { "\($0.attributes["milepost.step.id"] ?? "?")#\($0.attributes["milepost.step.attempt"] ?? "?"):\($0.attributes["milepost.step.outcome"] ?? "?")" }.sorted()
            == ["2.0/first#1:succeeded", "2.0/flaky#1:failed", "2.0/flaky#2:succeeded"])
        for step in steps {
            #expect(step.traceID == Self.parentTraceID)
            #expect(step.parentSpanID == run.spanID)
            #expect(step.attributes["milepost.step.threshold"] == "2.0")
        }
        let failed = try #require(steps.first { $0.attributes["milepost.step.outcome"] == "failed" })
        #expect(failed.attributes["milepost.step.error"]?.contains("exited with status 3") == true)
        #expect(failed.statusCode == "STATUS_CODE_ERROR")
        let lock = try #require(spans.first { $0.name == "milepost.lock" })
        #expect(lock.parentSpanID == run.spanID)

        // The exec child got its own step span's context, in the run's trace.
        let first = try #require(steps.first { $0.attributes["milepost.step.id"] == "2.0/first" })
        #expect(try work.read("traceparent.txt") == "00-\(Self.parentTraceID)-\(first.spanID)-01")

        let metrics = try receiver.metrics()
        #expect(metrics["milepost_run_duration_seconds"]?.contains { $0["outcome"] == "succeeded" && $0["app"] == "shop" } == true)
        #expect(metrics["milepost_step_duration_seconds"]?.isEmpty == false)
        #expect(metrics["milepost_step_attempts_total"]?.contains { $0["step"] == "2.0/flaky" && $0["outcome"] == "failed" } == true)
        #expect(metrics["milepost_lock_wait_seconds"]?.contains { $0["store"] == "file" } == true)
        #expect(metrics["milepost_pending_steps"]?.isEmpty == false)
        #expect(metrics["milepost_stored_version"]?.contains { $0["version"] == "2.0" && $0["app"] == "shop" } == true)
    }

    /// With an endpoint configured, an up-to-date run leaves the pre-start fast path so it is
    /// exported too; without a TRACEPARENT it starts its own trace.
    @Test func anUpToDateRunIsExportedAsARootSpan() throws {
        let work = try WorkDirectory()
        try work.write(Self.manifest, to: "milepost.yaml")
        #expect(try work.milepost.run("run", "--to", "2.0").status == 0)
        let receiver = try OTLPReceiver(in: work)
        let result = try Self.exporting(to: receiver, in: work).run("run", "--to", "2.0")
        #expect(result.status == 0, "\(result.stderr)")
        let run = try #require(try receiver.spans().spans.first { $0.name == "milepost.run" })
        #expect(run.attributes["milepost.outcome"] == "up-to-date")
        #expect(run.parentSpanID == nil || run.parentSpanID == "")
    }

    /// `OTEL_SDK_DISABLED=true` exports nothing, and the fast path answers as without an endpoint.
    @Test func sdkDisabledExportsNothing() throws {
        let work = try WorkDirectory()
        try work.write(Self.manifest, to: "milepost.yaml")
        let receiver = try OTLPReceiver(in: work)
        var milepost = Self.exporting(to: receiver, in: work)
        milepost.environment["OTEL_SDK_DISABLED"] = "true"
        let result = try milepost.run("run", "--to", "2.0")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try receiver.requests(at: "/v1/traces").isEmpty)
        #expect(try receiver.requests(at: "/v1/metrics").isEmpty)
        // Without a tracer the child inherits no trace context.
        #expect(try work.read("traceparent.txt") == "")
    }

    /// A collector that accepts connections and never answers delays the run by at most the
    /// flush bound (2 s, docs/observability.md) and does not change its exit code. Without the
    /// bound the exporter's own timeout (10 s) would hold the run.
    @Test func aCollectorThatNeverAnswersDelaysTheRunByAtMostTheBound() throws {
        let work = try WorkDirectory()
        try work.write(Self.manifest, to: "milepost.yaml")
        let receiver = try OTLPReceiver(in: work, silent: true)
        let started = Date()
        let result = try Self.exporting(to: receiver, in: work).run("run", "--to", "2.0")
        let elapsed = Date().timeIntervalSince(started)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(elapsed < 6, "the run took \(elapsed) s")
    }
}
#endif
