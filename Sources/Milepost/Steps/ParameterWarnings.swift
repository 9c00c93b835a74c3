/// Parameters of a step that can see, once decoded, something that is allowed but likely wrong
/// (the `sql` step: a `COMMIT` in a script that runs in its checkpoint's transaction). The manifest
/// reports each warning at the step's `with:` (`validate` prints them; `--strict` fails on them).
public protocol ParameterWarnings: Sendable {
    /// What looks wrong, one sentence each; empty when nothing does.
    var warnings: [String] { get }
}
