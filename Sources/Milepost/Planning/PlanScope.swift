/// What puts a step in or out of a plan's scope: the `--labels` expression, whether the run is
/// a fresh install (`StepCondition`), and the run's phase (`StepPhase`). A step out of scope is
/// neither run nor recorded; a step of another phase waits for a run of its phase.
public struct PlanScope: Sendable {
    /// The label expression; nil: every labelled step is in scope (`--labels` only narrows).
    public var labels: LabelExpression?
    /// The store has reached no version yet (`StepCondition`): `when: upgrade` steps are out of
    /// scope, `when: fresh-install` steps in.
    public var freshInstall: Bool
    /// The run's phase (`run --phase`): `.preStart` runs the pre-start steps (and the contract
    /// steps a newer release's run may run, `admits(_:from:to:)`); `.contract` adds the contract
    /// steps up to the target; `.background` adds the background steps.
    public var phase: StepPhase
    /// A fresh install records its target and runs only the `when: fresh-install` steps
    /// (`FreshInstallPolicy.record`); the other steps are out of scope. Only with `freshInstall`.
    public var recordsFreshInstall: Bool

    public init(
        labels: LabelExpression? = nil, freshInstall: Bool = false, phase: StepPhase = .preStart,
        recordsFreshInstall: Bool = false
    ) {
        self.labels = labels
        self.freshInstall = freshInstall
        self.phase = phase
        self.recordsFreshInstall = freshInstall && recordsFreshInstall
    }

    /// Whether a run of this phase from `from` to `target` runs `step` when it is due.
    ///
    /// A pre-start step: always. A contract step: in a contract run; in a fresh install (no older
    /// release can be running); and in any run to a newer release than the stored one when the step
    /// is at or below the stored version — every replica runs that version or a later one once the
    /// next release rolls out. A background step: only in a background run.
    public func admits(_ step: ManifestStep, from: Version, to target: Version) -> Bool {
        switch step.phase {
        case .preStart: true
        case .contract: phase == .contract || freshInstall || (step.threshold <= from && target > from)
        case .background: phase == .background
        }
    }

    /// Why `step` is out of scope in a run that passes its threshold; nil when it is in scope.
    func exclusion(of step: ManifestStep) -> Plan.Reason? {
        if let when = step.when, (when == .freshInstall) != freshInstall { return .condition(when) }
        if recordsFreshInstall, step.when != .freshInstall { return .freshInstallRecorded }
        if let labels, !step.labels.isEmpty, !labels.matches(step.labels) { return .labels(step.labels, labels) }
        return nil
    }

    /// Why `step`, in scope, is: its labels matched the expression, its condition holds; nil for a
    /// step that neither labels nor a condition choose.
    func inclusion(of step: ManifestStep) -> String? {
        var notes: [String] = []
        if let labels, !step.labels.isEmpty {
            notes.append("labels \(step.labels.joined(separator: ", ")) match --labels '\(labels)'")
        }
        if let when = step.when {
            notes.append("when: \(when.rawValue), and this run is " + (freshInstall ? "a fresh install" : "an upgrade"))
        }
        return notes.isEmpty ? nil : notes.joined(separator: "; ")
    }
}

extension Plan {
    /// Why a step that will run is in scope (`labels eu match --labels 'eu'`, `when: upgrade, and
    /// this run is an upgrade`); nil for other entries and for steps no label or condition chooses.
    public func inclusion(of entry: Entry) -> String? {
        guard entry.status.isAhead else { return nil }
        return scope.inclusion(of: entry.step)
    }

    /// Whether `entry` is in scope, for a step that labels or a condition choose; nil for others.
    public func isInScope(_ entry: Entry) -> Bool? {
        entry.step.labels.isEmpty && entry.step.when == nil ? nil : entry.status != .outOfScope
    }
}
