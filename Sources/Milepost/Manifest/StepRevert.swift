/// How `milepost revert` undoes a manifest step: the closure to run and the parameters it gets.
/// Either the revert registered with the step, given the step's own `with:`, or (for a step that
/// `revertsWithManifestParameters`, like `exec`) the step's body given the manifest's `revert:`,
/// or, for `revert: none`, nothing: reverting past the step only marks it not done.
///
/// A class: a `ManifestStep` holds an optional reference (8 bytes) instead of the 57 bytes of
/// the value, which most steps do not have (issue 32, docs/performance.md).
final class StepRevert: Sendable {
    let body: @Sendable (StepInvocation, any Sendable) async throws -> Void
    let parameters: any Sendable
    /// `revert: none`: the step has nothing to undo, and its revert runs nothing.
    let undoesNothing: Bool

    init(body: @escaping @Sendable (StepInvocation, any Sendable) async throws -> Void, parameters: any Sendable, undoesNothing: Bool = false) {
        self.body = body
        self.parameters = parameters
        self.undoesNothing = undoesNothing
    }

    /// `revert: none`.
    static let nothing = StepRevert(body: { _, _ in }, parameters: (), undoesNothing: true)
}
