import MilepostSystem

// The manifest's hooks (`ManifestHooks`), run around a run that has steps to run.
extension Runner {
    /// Runs the hooks of `phase` in order, each through the attempt loop as a step is (its
    /// `retries:` and `timeout:` apply as they do to a step), journaled (`hook-started`, then
    /// `hook-succeeded` or `hook-failed`) and never recorded in the state. A failed `before_run`
    /// hook stops the list; `after_run` and `on_failure` hooks all run, whatever one of them did.
    /// - returns: each hook's result, in the order they ran.
    func runHooks(_ phase: ManifestHooks.Phase, of manifest: Manifest, in context: RunContext) async throws -> [RunReport.StepResult] {
        var results: [RunReport.StepResult] = []
        for hook in manifest.hooks[phase] {
            guard !Task.isCancelled else { break }
            let record = HookRecord(hook: hook.id, store: context.locked, journal: context.journal, points: context.points)
            let result = try await attempts(of: hook, direction: .forward, position: nil, record: record, in: context)
            results.append(result)
            options.onProgress?(.hookFinished(result, phase: phase))
            if result.status != .succeeded, phase == .beforeRun { break }
        }
        return results
    }
}

/// A hook's attempts in the journal (a hook is not recorded in the state): `hook-started` before
/// each, `hook-succeeded` or `hook-failed` (with the tail of its stderr) after. A hook commits no
/// cursor and reports no progress.
actor HookRecord: AttemptRecord {
    let hook: String
    let store: any LockedStore
    let journal: RunJournal
    let points: CommitPoints
    /// A hook never resumes.
    let cursor: String? = nil
    private(set) var stderrTail: String?

    init(hook: String, store: any LockedStore, journal: RunJournal, points: CommitPoints) {
        self.hook = hook
        self.store = store
        self.journal = journal
        self.points = points
    }

    func begin(attempt: Int) async throws {
        stderrTail = nil
        try await append(.stepStarted, journal.record(.hookStarted, step: hook, attempt: attempt))
    }

    func commitCursor(_ text: String) async throws { throw HookCursorError(hook: hook) }

    func reportProgress(_ completed: Int, total: Int?, message: String?, interval: Duration) async throws -> StepProgress? { nil }

    /// A hook keeps no in-progress mark: whatever it left running is not waited for.
    func recordProcessGroup(_ group: Int32) async throws {}

    func recordStderrTail(_ tail: String) { stderrTail = StepOutputTail.bounded(tail) }

    func succeeded(attempt: Int, durationMs: Int) async throws {
        try await append(.stepEnded, journal.record(.hookSucceeded, step: hook, attempt: attempt, durationMs: durationMs))
    }

    func interrupted(attempt: Int, durationMs: Int, error: String) async throws {
        try await failed(attempt: attempt, durationMs: durationMs, error: error, last: true)
    }

    func failed(attempt: Int, durationMs: Int, error: String, last: Bool) async throws {
        try await append(.stepEnded, journal.record(
            .hookFailed, step: hook, attempt: attempt, durationMs: durationMs, error: error, stderr: stderrTail))
    }

    /// Nothing to write: the last attempt's `hook-failed` stands.
    func retriesStopped(error: String) async throws {}

    /// Appends `record`, the commit point `kind` of this hook.
    private func append(_ kind: CommitPoint.Kind, _ record: JournalRecord) async throws {
        try await points.pass(kind, step: hook) { try await store.append([record]) }
    }
}

/// A hook is not recorded in the state, so it has nowhere to keep a cursor.
struct HookCursorError: Error, CustomStringConvertible {
    let hook: String
    var description: String { "hook \(hook) committed a cursor: hooks are not recorded, so they cannot resume at one" }
}
