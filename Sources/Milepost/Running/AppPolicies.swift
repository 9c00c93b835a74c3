/// What a fresh install runs (`RunOptions.freshInstall`).
public enum FreshInstallPolicy: String, Sendable, CaseIterable {
    /// Every step up to the target, as for a server whose first start builds what it needs (the default).
    case runAll = "run-all"
    /// Only the `when: fresh-install` steps; the target is then recorded as reached, as
    /// `milepost baseline` records it: an app's first launch at 2.3 has no 2.0 data for the 2.1 fix
    /// to repair, so the steps for upgrades never run on it (nor later, as late steps).
    case record
}

/// What a run does at an interrupted step that would need `resolve` (`RunOptions.interruptedSteps`).
public enum InterruptedStepPolicy: String, Sendable, CaseIterable {
    /// Stop there (`RunReport.Outcome.blocked`, exit 2) until someone resolves it: a server has an operator.
    case block
    /// Run it again, at its last cursor if it committed one: a device has no operator, and a step
    /// an app ships must then be safe to run again after a kill (logged as a warning each time).
    case retry
}
