import MilepostSystem

// `requires: approval`: the approvals a plan reads, and `milepost approve`, which journals one.
extension Runner {
    /// Why `approve` was refused.
    public enum ApprovalError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The manifest has no step with that id.
        case unknownStep(id: String, suggestion: String?)
        /// The step has no `requires: approval`.
        case notRequired(id: String)
        /// The step completed on this store: there is nothing left to approve.
        case completed(id: String)
        /// The reviewed plan does not run the step, or ran it as another entry, or was made with
        /// another manifest: the changes, in words.
        case planChanged(id: String, changes: [String])

        public var description: String {
            switch self {
            case .unknownStep(let id, let suggestion):
                "the manifest has no step \(id)" + (suggestion.map { "; did you mean '\($0)'?" } ?? "")
            case .notRequired(let id): "step \(id) does not require approval (no 'requires: approval')"
            case .completed(let id): "step \(id) has completed on this store; there is nothing to approve"
            case .planChanged(let id, let changes): "the plan does not hold for \(id): \(changes.joined(separator: "; "))"
            }
        }
    }

    /// The approvals a plan of `manifest` against `state` to `target` in `scope` needs: read from
    /// the journal only when a step that requires approval is still to run and this run may run it
    /// (the gate holds back only a pending step), so that other stores — and the pre-start runs
    /// beside a contract step awaiting approval — cost nothing. Those given for a reviewed plan
    /// count only for a run of it (`options.reviewedPlan`).
    func approvals(
        _ manifest: Manifest, state: StoredState?, to target: Version, scope: PlanScope, history: StoreHistory
    ) async throws -> StepApprovals {
        let plan = options.reviewedPlan?.digest
        let completed = Set(state?.completed.map(\.id) ?? [])
        let from = state?.version ?? manifest.baseline
        guard manifest.steps.contains(where: {
            $0.requiresApproval && ($0.repeats != nil || !completed.contains($0.id))
                && ($0.scope == .host || scope.admits($0, from: from, to: target))  // a host step's `from` is the host store's
        }),
              let journal = try await history.records(else: "approvals are unknown: steps that require one wait")
        else { return StepApprovals(plan: plan) }
        return StepApprovals(journal: journal, plan: plan)
    }

    /// Journals an approval of the step `id` of `manifest` as it is now, by `by`, under the lock: a
    /// run may then start it (`StepApprovals`). With `plan`, the approval is for runs of that
    /// reviewed plan only, and is refused unless the plan runs the step as it is now.
    /// - throws: `ApprovalError`, or the store's errors.
    public func approve(
        _ id: String, by: String, in manifest: Manifest, plan: PlanFile? = nil
    ) async throws -> StepApprovals.Approval {
        guard let step = manifest.step(id: id) else {
            throw ApprovalError.unknownStep(id: id, suggestion: NameSuggestion.closest(to: id, among: manifest.steps.map(\.id)))
        }
        guard step.requiresApproval else { throw ApprovalError.notRequired(id: id) }
        let fingerprint = step.fingerprint
        if let plan {
            var changes: [String] = []
            if plan.manifest != manifest.digest { changes.append("the manifest changed since the plan was made") }
            switch plan.steps.first(where: { $0.id == id }) {
            case nil: changes.append("the plan does not run \(id)")
            case let planned? where planned.fingerprint != fingerprint: changes.append("\(id) was edited since the plan was made")
            default: break
            }
            if !changes.isEmpty { throw ApprovalError.planChanged(id: id, changes: changes) }
        }
        return try await stores.withLock(app: manifest.app) { locked, journal in
            let state = try await locked.readState()
            if step.repeats == nil, state?.completed.contains(where: { $0.id == id || $0.id == step.replaces }) == true {
                throw ApprovalError.completed(id: id)
            }
            let record = journal.record(.approved, step: id, fingerprint: fingerprint, by: by, plan: plan?.digest)
            try await locked.append([record])
            return StepApprovals.Approval(step: id, fingerprint: fingerprint, by: by, at: record.time, plan: record.plan)
        }
    }
}
