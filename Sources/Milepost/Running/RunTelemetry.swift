import CoreMetrics
import Tracing

/// The traces and metrics of a run, through swift-distributed-tracing and swift-metrics: no-ops
/// until the application bootstraps a tracer (`InstrumentationSystem`) or a metrics backend
/// (`MetricsSystem`). Every span, attribute and metric is listed in docs/observability.md.
enum RunTelemetry {
    /// Span names.
    enum SpanName {
        static let run = "milepost.run"
        static let step = "milepost.step"
        static let lock = "milepost.lock"
    }

    /// `outcome` of a run or a lock wait that ended with an error instead of a report.
    static let errorOutcome = "error"

    /// `body` (one `Runner.run`) as the `milepost.run` span, a child of the current context (the
    /// CLI puts a `TRACEPARENT` from its environment there); records the run's metrics.
    static func run(
        store: any MilepostStore, to target: Version, phase: StepPhase, _ body: () async throws -> RunReport
    ) async throws -> RunReport {
        let clock = ContinuousClock()
        let startedAt = clock.now
        return try await withSpan(SpanName.run) { span in
            span.attributes["milepost.to"] = target.text
            span.attributes["milepost.phase"] = phase.rawValue
            span.attributes["milepost.store.kind"] = store.kind
            let report: RunReport
            do {
                report = try await body()
            } catch {
                span.attributes["milepost.outcome"] = errorOutcome
                Timer(label: MilepostMetric.runDuration.rawValue, dimensions: [("app", ""), ("outcome", errorOutcome)])
                    .record(duration: clock.now - startedAt)
                throw error
            }
            let app = report.app ?? ""
            span.attributes["milepost.app"] = report.app
            span.attributes["milepost.from"] = report.from.text
            span.attributes["milepost.outcome"] = report.outcome.rawValue
            span.attributes["milepost.run.id"] = report.run
            span.attributes["milepost.awaiting_approval"] = report.outcome == .awaitingApproval ? report.plan?.approvalGate?.step.id : nil
            span.attributes["milepost.deadline_refused"] = report.deadlineRefusal?.step
            if report.outcome.isFailure {
                span.setStatus(SpanStatus(code: .error, message: report.outcome.rawValue))
            }
            Timer(label: MilepostMetric.runDuration.rawValue, dimensions: [("app", app), ("outcome", report.outcome.rawValue)])
                .record(duration: clock.now - startedAt)
            if let plan = report.plan, report.outcome != .dryRun {
                let done = report.steps.count { $0.status == .succeeded }
                let pending = report.outcome == .succeeded || report.outcome == .upToDate ? 0 : plan.pending.count - done
                Gauge(label: MilepostMetric.pendingSteps.rawValue, dimensions: [("app", app)]).record(pending)
            }
            Gauge(label: MilepostMetric.storedVersion.rawValue, dimensions: [("app", app), ("version", storedVersion(after: report).text)])
                .record(1)
            return report
        }
    }

    /// The version stored once the run is over: the target only when it got there.
    private static func storedVersion(after report: RunReport) -> Version {
        report.outcome == .succeeded || report.outcome == .upToDate ? report.to : report.from
    }

    /// Taking the store's lock as the `milepost.lock` span; records how long it waited.
    static func lockWait<Locked>(store: any MilepostStore, _ take: () async throws -> Locked) async throws -> Locked {
        let clock = ContinuousClock()
        let startedAt = clock.now
        return try await withSpan(SpanName.lock) { span in
            span.attributes["milepost.store.kind"] = store.kind
            do {
                let locked = try await take()
                Timer(label: MilepostMetric.lockWait.rawValue, dimensions: [("store", store.kind), ("outcome", "acquired")])
                    .record(duration: clock.now - startedAt)
                return locked
            } catch {
                Timer(label: MilepostMetric.lockWait.rawValue, dimensions: [("store", store.kind), ("outcome", errorOutcome)])
                    .record(duration: clock.now - startedAt)
                throw error
            }
        }
    }

    /// One attempt of `step` as a `milepost.step` span (current while the step's body runs, so
    /// `exec` passes it on as `TRACEPARENT`); records the attempt's duration and outcome.
    /// `approval`: the approval that let the step start, when it requires one.
    static func attempt(
        _ step: ManifestStep, number: Int, app: String?, approval: StepApprovals.Approval?,
        _ body: () async -> (StepExecution.Outcome, durationMs: Int)
    ) async -> (StepExecution.Outcome, durationMs: Int) {
        await withSpan(SpanName.step) { span in
            span.attributes["milepost.step.id"] = step.id
            span.attributes["milepost.step.approved_by"] = approval?.by
            span.attributes["milepost.step.threshold"] = step.threshold.text
            span.attributes["milepost.step.attempt"] = number
            span.attributes["milepost.step.phase"] = step.phase.rawValue
            let (outcome, durationMs) = await body()
            let name = outcomeName(outcome)
            span.attributes["milepost.step.outcome"] = name
            if let error = outcome.failure.map(step.secrets.redact) {
                span.attributes["milepost.step.error"] = error
                span.setStatus(SpanStatus(code: .error, message: error))
            }
            let dimensions = [("app", app ?? ""), ("step", step.id), ("outcome", name), ("phase", step.phase.rawValue)]
            Timer(label: MilepostMetric.stepDuration.rawValue, dimensions: dimensions).recordMilliseconds(durationMs)
            Counter(label: MilepostMetric.stepAttempts.rawValue, dimensions: dimensions).increment()
            return (outcome, durationMs)
        }
    }

    private static func outcomeName(_ outcome: StepExecution.Outcome) -> String {
        switch outcome {
        case .succeeded: "succeeded"
        case .failed: "failed"
        case .timedOut: "timed-out"
        case .cancelled: "interrupted"
        }
    }
}

extension CoreMetrics.Timer {
    /// Records a `Duration` (swift-metrics counts nanoseconds).
    func record(duration: Duration) {
        let (seconds, attoseconds) = duration.components
        recordNanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
