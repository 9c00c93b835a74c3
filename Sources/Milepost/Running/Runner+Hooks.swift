import Logging
import MilepostSystem

// The manifest's hooks (`ManifestHooks`), run around a run that has steps to run.
extension Runner {
    /// Runs the hooks of `phase` in order, each journaled (`hook-started`, then `hook-succeeded` or
    /// `hook-failed`) and never recorded in the state. A failed `before_run` hook stops the list;
    /// `after_run` and `on_failure` hooks all run, whatever one of them did. A hook's `retries:`
    /// and `timeout:` apply as they do to a step; it commits no cursor.
    /// - returns: each hook's result, in the order they ran.
    func runHooks(
        _ phase: ManifestHooks.Phase, of manifest: Manifest, plan: Plan, on locked: any LockedStore, journal: RunJournal,
        grace: StopGrace
    ) async throws -> [RunReport.StepResult] {
        var results: [RunReport.StepResult] = []
        for hook in manifest.hooks[phase] {
            guard !Task.isCancelled else { break }
            let result = try await runHook(hook, plan: plan, directory: manifest.directory, on: locked, journal: journal, grace: grace)
            results.append(result)
            options.onProgress?(.hookFinished(result, phase: phase))
            if result.status != .succeeded, phase == .beforeRun { break }
        }
        return results
    }

    private func runHook(
        _ hook: ManifestStep, plan: Plan, directory: String, on locked: any LockedStore, journal: RunJournal,
        grace: StopGrace
    ) async throws -> RunReport.StepResult {
        var hookLogger = logger
        hookLogger[metadataKey: "hook"] = "\(hook.id)"
        hookLogger[metadataKey: "run"] = "\(journal.run)"
        let retry = RetryPolicy(retries: hook.retries, delay: options.retryDelay)
        let tail = HookOutputTail()
        var attempt = 0
        while true {
            attempt += 1
            try await locked.append([journal.record(.hookStarted, step: hook.id, attempt: attempt)])
            let reporting = StepReporting(
                commitCursor: { _ in throw HookCursorError(hook: hook.id) }, reportProgress: { _, _, _ in },
                // A hook keeps no in-progress mark: it runs again with the next run that has steps.
                recordProcessGroup: { _ in }, recordStderrTail: { await tail.keep($0) })
            let invocation = StepInvocation(
                id: hook.id, name: hook.name, threshold: hook.threshold, from: plan.from, to: plan.to, attempt: attempt,
                logger: hookLogger, manifestDirectory: directory, stopGrace: grace, store: locked, resumeCursor: nil,
                reporting: reporting, secrets: hook.secrets)
            let clock = ContinuousClock()
            let startedAt = clock.now
            let outcome = await StepExecution.run(timeout: hook.timeout, grace: grace) {
                try await hook.definition.body(invocation, hook.parameters)
            }
            let durationMs = DurationText.milliseconds(clock.now - startedAt)
            if case .succeeded = outcome {
                try await locked.append([journal.record(.hookSucceeded, step: hook.id, attempt: attempt, durationMs: durationMs)])
                return RunReport.StepResult(id: hook.id, status: .succeeded, attempts: attempt, durationMs: durationMs, error: nil)
            }
            let cancelled = if case .cancelled = outcome { true } else { false }
            let error = cancelled ? "cancelled by a signal after \(durationMs) ms" : hook.secrets.redact(outcome.failure ?? "")
            let stderr = await tail.text
            hookLogger.error("hook failed: \(error)", metadata: ["attempt": "\(attempt)"])
            try await locked.append([journal.record(
                .hookFailed, step: hook.id, attempt: attempt, durationMs: durationMs, error: error, stderr: stderr)])
            if cancelled || !retry.allowsAttempt(after: attempt) || Task.isCancelled {
                return RunReport.StepResult(
                    id: hook.id, status: cancelled ? .interrupted : .failed, attempts: attempt, durationMs: durationMs,
                    error: error, stderr: stderr)
            }
            try? await Task.sleep(for: retry.pause(after: attempt))
        }
    }
}

/// A hook is not recorded in the state, so it has nowhere to keep a cursor.
struct HookCursorError: Error, CustomStringConvertible {
    let hook: String
    var description: String { "hook \(hook) committed a cursor: hooks are not recorded, so they cannot resume at one" }
}

/// The tail of a hook's stderr in its last attempt (`StepOutputTail`), for its `hook-failed` record.
private actor HookOutputTail {
    private(set) var text: String?
    func keep(_ tail: String) { text = StepOutputTail.bounded(tail) }
}
