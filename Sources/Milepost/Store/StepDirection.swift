/// Which way a step's work was going when the state marked it: its body (`run`) or its revert
/// (`revert`). Stored as `direction` in a step's in-progress and failed marks; absent means forward,
/// so states written before reverts existed read as they always did.
public enum StepDirection: String, Codable, Sendable {
    /// The step's body, run by `milepost run`.
    case forward
    /// The step's revert, run by `milepost revert`.
    case revert
}
