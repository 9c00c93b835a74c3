import Logging
import MilepostYAML
import MilepostSystem

// The one attempt loop: the only caller of a step's body (or its revert's, or a hook's).
extension Runner {
    /// Runs attempts of `step` until one succeeds, a signal stops it, or its retry policy gives up.
    /// Each attempt runs the body of `direction` (`StepExecution`: its timeout, the stop grace),
    /// resumes at `record`'s cursor and is recorded by `record` before it starts and after it ends.
    /// `position` is the step's place among the run's steps: it gets progress reports and a
    /// `milepost.step` span; nil for a hook, which gets neither.
    func attempts(
        of step: ManifestStep, direction: StepDirection, position: (index: Int, total: Int)?, record: some AttemptRecord,
        in context: RunContext
    ) async throws -> RunReport.StepResult {
        let noun = position == nil ? "hook" : "step"
        var logger = logger
        logger[metadataKey: "\(noun)"] = "\(step.id)"
        logger[metadataKey: "run"] = "\(context.journal.run)"
        let retry = RetryPolicy(retries: step.retries, delay: options.retryDelay)
        // Under a crash test every progress report is a commit point, whenever it comes: runs that
        // do the same work pass the same points.
        let progressInterval = options.commitTrap == nil ? options.progressInterval : .zero
        // Decoded once for all attempts (`ManifestStep.parameters()`: as at load); a failure, which
        // only a parameters type that does not decode the same way twice can cause, is each attempt's.
        let (body, parameters): (@Sendable (StepInvocation, any Sendable) async throws -> Void, Result<any Sendable, YAMLError>) =
            switch direction {
            case .forward: (step.definition.body, Result { () throws(YAMLError) in try step.parameters() })
            // `Runner.revert` applies only steps that have a revert.
            case .revert: (step.revert!.body, .success(step.revert!.parameters))
            }
        func result(
            _ status: RunReport.StepResult.Status, _ attempt: Int, _ durationMs: Int, _ error: String?, underlying: (any Error)? = nil
        ) async -> RunReport.StepResult {
            RunReport.StepResult(
                id: step.id, status: status, attempts: attempt, durationMs: durationMs, error: error, underlying: underlying,
                stderr: status == .succeeded ? nil : await record.stderrTail)
        }
        func attempt(_ number: Int) async -> (StepExecution.Outcome, durationMs: Int) {
            guard let position else { return await run(attempt: number) }
            options.onProgress?(.stepStarted(id: step.id, index: position.index, total: position.total, attempt: number))
            let approval = step.requiresApproval ? context.approvals.approval(of: step) : nil
            return await RunTelemetry.attempt(step, number: number, app: context.journal.app, approval: approval) {
                await run(attempt: number)
            }
        }
        /// One attempt of the body with its timeout: how it ended, and how long it took. What the
        /// step says enters here, and its secret values are masked here for every place it goes:
        /// its progress messages (state, journal, `onProgress`) and its log (control-line warnings).
        func run(attempt number: Int) async -> (StepExecution.Outcome, durationMs: Int) {
            let reporting = StepReporting(
                commitCursor: { try await record.commitCursor($0) },
                reportProgress: { [options, logger] completed, total, message in
                    do {
                        guard let progress = try await record.reportProgress(
                            completed, total: total, message: message.map(step.secrets.redact), interval: progressInterval)
                        else { return }
                        options.onProgress?(.stepProgress(id: step.id, progress))
                    } catch {
                        logger.warning("could not record the step's progress: \(error)")
                    }
                },
                recordProcessGroup: { try await record.recordProcessGroup($0) },
                recordStderrTail: { await record.recordStderrTail($0) })
            let invocation = StepInvocation(
                id: step.id, name: step.name, threshold: step.threshold, from: context.from, to: context.to, attempt: number,
                logger: step.secrets.redacting(logger), manifestDirectory: context.directory, stopGrace: context.grace, scripts: context.locked.scripts,
                resumeCursor: await record.cursor, reporting: reporting, secrets: step.secrets)
            let clock = ContinuousClock()
            let startedAt = clock.now
            let outcome = await StepExecution.run(timeout: step.timeout, grace: context.grace) {
                try await body(invocation, try parameters.get())
            }
            return (outcome, DurationText.milliseconds(clock.now - startedAt))
        }
        var number = 0
        while true {
            number += 1
            try await record.begin(attempt: number)
            logger[metadataKey: "attempt"] = "\(number)"
            logger.info("\(noun) started")
            let (outcome, durationMs) = await attempt(number)
            switch outcome {
            case .succeeded:
                try await record.succeeded(attempt: number, durationMs: durationMs)
                logger.info("\(noun) succeeded", metadata: ["duration_ms": "\(durationMs)", "outcome": "succeeded"])
                return await result(.succeeded, number, durationMs, nil)
            case .cancelled:
                let message = "cancelled by a signal after \(durationMs) ms"
                try await record.interrupted(attempt: number, durationMs: durationMs, error: message)
                logger.warning("\(noun) interrupted", metadata: ["outcome": "interrupted"])
                return await result(.interrupted, number, durationMs, message)
            case .timedOut, .failed:
                break
            }
            let error = step.secrets.redact(outcome.failure ?? "")
            let last = !retry.allowsAttempt(after: number) || Task.isCancelled
            // A retried attempt's failure is told only here; the last one is the step's result,
            // which the caller reports (the CLI's FAILED line): logged below the default level.
            logger.log(
                level: last ? .notice : .warning, "\(noun) failed\(last ? "" : "; retrying"): \(error)",
                metadata: ["outcome": "failed"])
            try await record.failed(attempt: number, durationMs: durationMs, error: error, last: last)
            if last { return await result(.failed, number, durationMs, error, underlying: outcome.thrown) }
            try? await Task.sleep(for: retry.pause(after: number))
            guard !Task.isCancelled else {
                try await record.retriesStopped(error: error)
                return await result(.failed, number, durationMs, error, underlying: outcome.thrown)
            }
        }
    }
}
