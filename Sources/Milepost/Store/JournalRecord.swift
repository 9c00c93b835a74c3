import FoundationEssentials

/// One line of the journal: an event of a run. Fields that do not apply are omitted.
public struct JournalRecord: Codable, Sendable, Equatable {
    /// The kinds of journal events.
    public enum Event: String, Codable, Sendable, CaseIterable {
        case runStarted = "run-started"
        case stepStarted = "step-started"
        case stepSucceeded = "step-succeeded"
        case stepFailed = "step-failed"
        case stepInterrupted = "step-interrupted"
        /// A running step's progress (throttled: at most one per `RunOptions.progressInterval`).
        case stepProgress = "step-progress"
        case runFinished = "run-finished"
        case baseline
        case resolved
        /// A runner took the lock over from a run whose lease expired (PostgreSQL lease lock).
        case lockTakenOver = "lock-taken-over"
        /// `milepost revert`: a step's revert started, succeeded, failed or was interrupted.
        case revertStarted = "revert-started"
        case revertSucceeded = "revert-succeeded"
        case revertFailed = "revert-failed"
        case revertInterrupted = "revert-interrupted"
        /// A hook (`hooks:` in the manifest) is about to run; `step` is its `PHASE/ID`.
        case hookStarted = "hook-started"
        case hookSucceeded = "hook-succeeded"
        case hookFailed = "hook-failed"
        /// `milepost approve`: a person approved a `requires: approval` step as it is now (its
        /// `fingerprint`), `by` whom, for the reviewed `plan` when one was named.
        case approved
    }

    /// How a run (`run-finished`) or a resolution (`resolved`) ended.
    public enum Outcome: String, Codable, Sendable, CaseIterable {
        // run-finished
        case succeeded, failed, interrupted, blocked
        case upToDate = "up-to-date"
        case downgradeRefused = "downgrade-refused"
        case downgradeAllowed = "downgrade-allowed"
        case downgradeCompatible = "downgrade-compatible"
        case stopRequired = "stop-required"
        case lateRefused = "late-refused"
        /// A `run` refused while a revert is unfinished.
        case revertUnfinished = "revert-unfinished"
        /// A run stopped before a step whose p95 no longer fits what is left of its deadline.
        case deadlineRefused = "deadline-refused"
        /// A run stopped before a `requires: approval` step that has no approval.
        case awaitingApproval = "awaiting-approval"
        /// A `run --plan` refused: the manifest, the store or the run changed since the plan was made.
        case planChanged = "plan-changed"
        // resolved
        case done, retry
    }

    public var time: Timestamp
    public var run: String
    public var event: Event
    public var app: String?
    public var from: String?
    public var to: String?
    public var step: String?
    public var attempt: Int?
    public var durationMs: Int?
    public var error: String?
    /// For `run-finished` and `resolved`: how it ended.
    public var outcome: Outcome?
    public var host: String?
    public var pid: Int32?
    /// For `lock-taken-over`: the run whose lease expired.
    public var previousRun: String?
    /// For `step-started`: the cursor the attempt resumes at.
    public var cursor: String?
    /// For `step-failed` and `step-interrupted`: the tail of the step's stderr (`exec`), control
    /// characters escaped.
    public var stderr: String?
    /// For `step-progress`: units done, units in all (when known), and the step's message.
    public var completed: Int?
    public var total: Int?
    public var message: String?
    /// For `run-started`: the run's phase (`run --phase`), and for `step-started`: the step's
    /// `phase:`, when it is not the pre-start phase.
    public var phase: StepPhase?
    /// For `step-succeeded` and `approved`: the step's fingerprint (`ManifestStep.fingerprint`), which
    /// tells a run of the step as it is now from a run of an earlier entry (`StepDurations`).
    public var fingerprint: String?
    /// For `approved`: who approved (`approve --by`).
    public var by: String?
    /// For `approved` and `run-started`: the digest of the reviewed plan (`PlanFile.digest`) the
    /// approval is for, or the run follows (`run --plan`).
    public var plan: String?

    public init(
        time: Timestamp, run: String, event: Event, app: String? = nil, from: String? = nil,
        to: String? = nil, step: String? = nil, attempt: Int? = nil, durationMs: Int? = nil,
        error: String? = nil, outcome: Outcome? = nil, host: String? = nil, pid: Int32? = nil,
        previousRun: String? = nil, cursor: String? = nil, stderr: String? = nil,
        completed: Int? = nil, total: Int? = nil, message: String? = nil, phase: StepPhase? = nil,
        fingerprint: String? = nil, by: String? = nil, plan: String? = nil
    ) {
        self.time = time
        self.run = run
        self.event = event
        self.app = app
        self.from = from
        self.to = to
        self.step = step
        self.attempt = attempt
        self.durationMs = durationMs
        self.error = error
        self.outcome = outcome
        self.host = host
        self.pid = pid
        self.previousRun = previousRun
        self.cursor = cursor
        self.stderr = stderr
        self.completed = completed
        self.total = total
        self.message = message
        self.phase = phase
        self.fingerprint = fingerprint
        self.by = by
        self.plan = plan
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case time, run, event, app, from, to, step, attempt
        case durationMs = "duration_ms"
        case error, outcome, host, pid
        case previousRun = "previous_run"
        case cursor, stderr, completed, total, message, phase, fingerprint, by, plan
    }

    /// Records that must reach the disk before the run goes on.
    public var isDurable: Bool {
        switch event {
        case .stepStarted, .stepSucceeded, .stepFailed, .stepInterrupted, .resolved, .baseline, .lockTakenOver: true
        case .hookStarted, .hookSucceeded, .hookFailed, .approved: true
        case .revertStarted, .revertSucceeded, .revertFailed, .revertInterrupted: true
        case .runStarted, .runFinished, .stepProgress: false
        }
    }
}

extension JournalRecord {
    /// The record as compact JSON with sorted keys (the encoder does not keep declaration order):
    /// a line of the file store's journal without its newline, and a row of the SQLite store's.
    package var json: [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding plain strings and numbers into JSON cannot fail.
        return Array(try! encoder.encode(self))
    }
}
