/// How `milepost revert` undoes a manifest step: the closure to run and the parameters it gets.
/// Either the revert registered with the step, given the step's own `with:`, or (for a step that
/// `revertsWithManifestParameters`, like `exec`) the step's body given the manifest's `revert:`,
/// or, for `revert: none`, nothing: reverting past the step only marks it not done.
struct StepRevert: Sendable {
    let body: @Sendable (StepInvocation, any Sendable) async throws -> Void
    let parameters: any Sendable
    /// `revert: none`: the step has nothing to undo, and its revert runs nothing.
    var undoesNothing = false

    /// `revert: none`.
    static let nothing = StepRevert(body: { _, _ in }, parameters: (), undoesNothing: true)
}
