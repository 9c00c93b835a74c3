/// The approvals a store's journal records (`approved`, written by `milepost approve`), as a run
/// asks them: may this `requires: approval` step start? Built in one pass over the journal.
///
/// An approval is of the step as it was approved (its fingerprint): an edited step needs a new
/// one. An approval given for a reviewed plan (`approve --plan`) lets the step start only in a run
/// of that plan (`run --plan`); one given without lets it start in any run.
public struct StepApprovals: Sendable {
    /// One `approved` record.
    public struct Approval: Sendable, Equatable {
        /// `THRESHOLD/ID`.
        public let step: String
        /// The step's fingerprint when it was approved.
        public let fingerprint: String
        /// Who approved (`approve --by`).
        public let by: String
        public let at: Timestamp
        /// The digest of the reviewed plan it was given for (`PlanFile.digest`); nil: any run.
        public let plan: String?

        public init(step: String, fingerprint: String, by: String, at: Timestamp, plan: String?) {
            self.step = step
            self.fingerprint = fingerprint
            self.by = by
            self.at = at
            self.plan = plan
        }
    }

    /// The digest of the reviewed plan the run follows (`run --plan`); nil: none.
    public let plan: String?
    private var byStep: [String: [Approval]] = [:]

    /// No approval recorded (a store whose manifest has no step to approve, or `plan --from`).
    public init(plan: String? = nil) {
        self.plan = plan
    }

    /// The approvals `journal` records, for a run that follows the reviewed plan `plan` (or none).
    public init(journal: [JournalRecord], plan: String? = nil) {
        self.plan = plan
        for record in journal where record.event == .approved {
            guard let step = record.step, let fingerprint = record.fingerprint else { continue }
            byStep[step, default: []].append(
                Approval(step: step, fingerprint: fingerprint, by: record.by ?? record.host ?? "?", at: record.time, plan: record.plan))
        }
    }

    /// The planner's last rule: `entry`, pending and of a step that `requires: approval`, awaits
    /// approval when no approval lets it start in this run; any other entry as it is.
    func gate(_ entry: Plan.Entry) -> Plan.Entry {
        guard entry.status == .pending, entry.step.requiresApproval, approval(of: entry.step) == nil else { return entry }
        return Plan.Entry(step: entry.step, status: .awaitingApproval, why: .awaitingApproval)
    }

    /// The latest approval that lets `step`, as it is now, start in this run; nil when none does.
    /// Works out the step's fingerprint only when it has approvals.
    public func approval(of step: ManifestStep) -> Approval? {
        guard let approvals = byStep[step.id] else { return nil }
        let fingerprint = step.fingerprint
        return approvals.last { $0.fingerprint == fingerprint && ($0.plan == nil || $0.plan == plan) }
    }
}
