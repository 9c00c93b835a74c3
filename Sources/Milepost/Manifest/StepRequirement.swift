/// What a step waits for before a run may start it (`requires:` in the manifest).
public enum StepRequirement: String, Sendable, Codable, CaseIterable {
    /// `requires: approval`: a person's approval of the step as it is now, journaled by `milepost
    /// approve` (`StepApprovals`); typically a contract or otherwise destructive step.
    case approval
}
