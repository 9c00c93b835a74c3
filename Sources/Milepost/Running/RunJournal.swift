import MilepostSystem

/// Builds the journal records of one run (or one maintenance command), stamped with time, host and pid.
struct RunJournal: Sendable {
    let run: String
    let app: String?

    /// A fresh run id: 12 random hex digits.
    static func newRunID() -> String {
        let hex = String(UInt64.random(in: 0...0xFFFF_FFFF_FFFF), radix: 16)
        return String(repeating: "0", count: 12 - hex.count) + hex
    }

    func record(
        _ event: JournalRecord.Event, from: Version? = nil, to: Version? = nil, step: String? = nil,
        attempt: Int? = nil, durationMs: Int? = nil, error: String? = nil, outcome: JournalRecord.Outcome? = nil,
        cursor: String? = nil, stderr: String? = nil, progress: StepProgress? = nil, phase: StepPhase? = nil,
        fingerprint: String? = nil, by: String? = nil, plan: String? = nil
    ) -> JournalRecord {
        JournalRecord(
            time: Timestamp.now(), run: run, event: event, app: app, from: from?.text, to: to?.text, step: step,
            attempt: attempt, durationMs: durationMs, error: error, outcome: outcome,
            host: ProcessIdentity.host, pid: ProcessIdentity.pid, cursor: cursor, stderr: stderr,
            completed: progress?.completed, total: progress?.total, message: progress?.message,
            phase: phase == .preStart ? nil : phase, fingerprint: fingerprint, by: by, plan: plan)
    }

    /// The `run-finished` record of a run (or revert) refused because `step` was interrupted and
    /// has not been resolved.
    func blocked(by step: InProgressStep, from: Version, to: Version) -> JournalRecord {
        record(.runFinished, from: from, to: to, step: step.id, error: RunFailure.blocking(step), outcome: .blocked)
    }
}

extension JournalRecord.Outcome {
    /// The `run-finished` outcome of a run that ended with `outcome`; nil for a dry run, which writes nothing.
    init?(_ outcome: RunReport.Outcome) {
        switch outcome {
        case .upToDate: self = .upToDate
        case .succeeded: self = .succeeded
        case .failed: self = .failed
        case .blocked: self = .blocked
        case .downgradeRefused: self = .downgradeRefused
        case .downgradeAllowed: self = .downgradeAllowed
        case .downgradeCompatible: self = .downgradeCompatible
        case .interrupted: self = .interrupted
        case .stopRequired: self = .stopRequired
        case .lateRefused: self = .lateRefused
        case .revertUnfinished: self = .revertUnfinished
        case .deadlineRefused: self = .deadlineRefused
        case .awaitingApproval: self = .awaitingApproval
        case .planChanged: self = .planChanged
        case .dryRun: return nil
        }
    }
}
