/// Everything `milepost status` shows: the stored state, the last run, the lock, and — with a
/// manifest — what is pending, what drifted and what will never run.
public struct StatusReport: Sendable {
    /// A completed step whose manifest entry or declared revision changed after it ran.
    public struct Drift: Sendable {
        public let id: String
        public let ranAt: Timestamp
        public let recorded: String
        public let current: String
    }

    /// The last run the journal knows.
    public struct LastRun: Sendable {
        public let run: String
        public let started: Timestamp
        public let finished: Timestamp?
        /// The `run-finished` outcome, or nil when the run never finished (killed).
        public let outcome: JournalRecord.Outcome?
        public let host: String?
        public let pid: Int32?
        /// The versions the run went from and to, as its `run-started` record gives them.
        public let from: String?
        public let to: String?
    }

    /// One store a status reads, and what it holds: the fleet store (`--store`), or this host's
    /// (`--host-store`, for the `scope: host` steps). Every question about a running, interrupted or
    /// failed step is asked of each side alike.
    public struct Side: Sendable {
        /// Whose steps the store records.
        public let scope: StepScope
        /// Where the store is, for messages.
        public let store: String
        /// What it holds; nil when nothing is stored yet.
        public let state: StoredState?
        /// Who holds its lock now, if anyone.
        public let lockHolder: LockHolder?

        /// The step in progress when its run still holds this store's lock, or its processes
        /// outlived the run (`InProgressStep.isRunning(lockHolder:)`).
        public let running: InProgressStep?
        /// The live pids of the running step's process group when its run is gone (killed).
        public let orphanedPids: [Int32]

        /// Whether the step in progress runs, and the pids its killed run left, are read once (a
        /// scan of /proc each), so that every part of one report gives the same answer.
        init(scope: StepScope, store: String, state: StoredState?, lockHolder: LockHolder?) {
            (self.scope, self.store, self.state, self.lockHolder) = (scope, store, state, lockHolder)
            let step = state?.inProgress
            let orphaned = step?.orphanedPids(lockHolder: lockHolder) ?? []
            orphanedPids = orphaned
            // `InProgressStep.isRunning(lockHolder:)`, with the pids read above.
            running = step.flatMap { lockHolder?.run == $0.run || !orphaned.isEmpty ? $0 : nil }
        }
    }

    /// The stores read: the fleet store, then the host store when one was given.
    public let sides: [Side]
    /// The fleet store's location, state and lock holder (`sides`' first).
    public var store: String { sides[0].store }
    public var state: StoredState? { sides[0].state }
    public var lockHolder: LockHolder? { sides[0].lockHolder }
    public let lastRun: LastRun?
    /// The last run took the lock over from a run whose lease had lapsed (PostgreSQL lease lock).
    public let takeOver: LockTakeOver?
    /// With a manifest: the plan to the target (or to the stored version when no target is given).
    public let plan: Plan?
    public let drift: [Drift]
    /// With a manifest: completed steps it no longer has (deleted, or renamed without `replaces:`).
    public let orphans: [CompletedStep]
    /// With a manifest: completed steps it does not have, above the newest version it speaks for
    /// (its last threshold, or the target): steps of a newer release, which an older release's
    /// manifest cannot know. Not orphans.
    public let newer: [CompletedStep]
    /// With a target: the store's readiness for it in the phase of the report's runner
    /// (`status --require`): the rule `wait` settles on, and whose floor `run` refuses by.
    public let readiness: Readiness?
    /// With a manifest and a step running: what the journal says of that step's duration.
    public var runningEstimate: StepEstimate? = nil

    /// When the running step is expected to end (`RunningStepETA`); nil when none runs or nothing tells.
    public var runningETA: RunningStepETA? { running.flatMap { RunningStepETA($0, estimate: runningEstimate) } }

    /// The side whose step is running right now, in either store.
    private var runningSide: Side? { sides.first { $0.running != nil } }
    /// The step in progress when its run still holds the lock (or its processes outlived the run):
    /// it is running right now, in either store.
    public var running: InProgressStep? { runningSide?.running }
    /// The live pids of the running step's process group when its run is gone (killed): the step
    /// runs on without its runner. Empty when its run still runs it, or nothing runs.
    public var orphanedPids: [Int32] { runningSide?.orphanedPids ?? [] }
    /// The step in progress whose run is gone (killed, power loss), in either store: it needs
    /// `resolve` unless idempotent. Also one set aside while another step ran before it (`StoredState.setAside`).
    public var interrupted: InProgressStep? {
        running == nil ? sides.lazy.compactMap { $0.state?.interruptedMarks.first }.first : nil
    }
    /// The first recorded failure, in either store.
    public var failed: FailedStep? { sides.lazy.compactMap { $0.state?.failures.first }.first }

    /// Steps added at or below the stored version that never ran: they never will.
    public var neverRun: [Plan.Entry] { plan?.entries.filter { $0.status == .skipped } ?? [] }
    /// Steps the unfinished revert (`StoredState.reverting`) undid: neither late nor never run.
    public var reverted: [Plan.Entry] { plan?.entries.filter { $0.status == .reverted } ?? [] }
    /// Late steps (`LatePolicy`): added at or below the stored version after the store reached it.
    public var late: [Plan.Entry] { plan?.late ?? [] }
    /// Steps that a run to the target would run.
    public var pending: [ManifestStep] { plan?.pending ?? [] }
}

extension Runner {
    /// Reads the state, the journal and the lock, and compares them with `manifest` if given. Writes nothing.
    public func status(manifest: Manifest?, to target: Version?) async throws -> StatusReport {
        try stores.refuseFleetStoreAsHostStore()
        let read = try await readSides()
        let (state, holder) = (read.fleet.state, read.fleet.lockHolder)
        let tail = try await journalTail() ?? []
        let lastRun = Self.lastRun(in: tail)
        var plan: Plan?
        var drift: [StatusReport.Drift] = []
        var (orphans, newer): ([CompletedStep], [CompletedStep]) = ([], [])
        var sides = [StatusReport.Side(scope: .fleet, store: store.location, state: state, lockHolder: holder)]
        let host = read.host
        if let host {
            sides.append(.init(scope: .host, store: host.store.location, state: host.state, lockHolder: host.lockHolder))
        }
        if let manifest {
            let stored = state?.version
            plan = try await self.plan(manifest, sides: read, to: target ?? stored ?? manifest.baseline)
            // A step that replaces another is compared with the record of the one it replaces.
            // A repeatable step's change is expected: it runs again (the plan says so), it does not drift.
            // Each worked out once (`ManifestStep.fingerprint` digests the entry on every access).
            let oneTime = manifest.steps.filter { $0.repeats == nil }.map { (step: $0, fingerprint: $0.fingerprint) }
            let fingerprints = Dictionary(
                oneTime.map { ($0.step.id, $0.fingerprint) } + oneTime.compactMap { entry in entry.step.replaces.map { ($0, entry.fingerprint) } },
                uniquingKeysWith: { first, _ in first })
            // Both stores' steps: a host step's record is in the host store.
            for completed in (state?.completed ?? []) + (host?.state?.completed ?? []) where !completed.fingerprint.isEmpty {
                if let current = fingerprints[completed.id], current != completed.fingerprint {
                    drift.append(.init(id: completed.id, ranAt: completed.at, recorded: completed.fingerprint, current: current))
                }
            }
            (orphans, newer) = UnknownSteps.of(state, in: manifest, newest: UnknownSteps.newestVersion(of: manifest, target: target))
        }
        var report = StatusReport(
            sides: sides, lastRun: lastRun, takeOver: lastRun.flatMap { LockTakeOver.of(run: $0.run, in: tail) }, plan: plan,
            drift: drift, orphans: orphans, newer: newer, readiness: target.map { Readiness(state, for: $0, phase: options.phase) })
        // The whole journal, read once, only while a step runs: how long its runs took.
        if let running = report.running, let step = manifest?.step(id: running.id) {
            report.runningEstimate = try await stepDurations().estimate(for: step)
        }
        return report
    }

    /// The end of the journal, back to the last run's start and the record before it (a
    /// `lock-taken-over` precedes its run's `run-started`): the last 256 records, then 16 times
    /// more until a `run-started` is among them after the first, so a long journal costs nothing.
    /// A journal line that is not a record is logged as a warning and the last run is unknown (nil):
    /// the journal is the log, the state decides, so `status --check` (a readiness gate) answers
    /// from the state.
    func journalTail() async throws -> [JournalRecord]? {
        var count = 256
        while true {
            guard let tail = try await StoreHistory.tail(of: store, last: count, else: "the last run is unknown", logger: logger) else { return nil }
            if tail.count < count || tail.dropFirst().contains(where: { $0.event == .runStarted }) { return tail }
            count *= 16
        }
    }

    static func lastRun(in journal: [JournalRecord]) -> StatusReport.LastRun? {
        guard let last = journal.last(where: { $0.event == .runStarted }) else { return nil }
        let finished = journal.last { $0.run == last.run && $0.event == .runFinished }
        return .init(
            run: last.run, started: last.time, finished: finished?.time, outcome: finished?.outcome, host: last.host,
            pid: last.pid, from: last.from, to: last.to)
    }
}
