import MilepostYAML
import Synchronization

/// The `${…}` of a manifest's `with:` and `revert:` strings as decoding met them: which variables the
/// manifest declares (`variables:`, `secrets:`), and for each use whether it was substituted, left
/// unset (an error only for a step a command runs: `Manifest.requireVariables(of:)`), or kept as
/// written for the step's shell. One object per decoding, shared by the string transform.
final class VariableUses: Sendable {
    enum Outcome: Sendable, Equatable {
        /// Replaced by its value or its default.
        case substituted
        /// A declared variable, not substituted because no values were given (syntax checked only).
        case unchecked
        /// A declared variable without a value or default: the message says which.
        case unset(message: String)
        /// Not a declared variable: kept as written, for the step's shell.
        case shell
    }

    struct Use: Sendable {
        /// The `${…}` as written.
        var written: String
        /// The variable, for a declared one; nil for shell text.
        var name: String?
        /// The string it is in.
        var location: SourceLocation
        var outcome: Outcome
    }

    private struct State {
        var declared: Set<String> = []
        var uses: [Use] = []
        var recording = true
    }

    private let state = Mutex(State())

    init() {}

    /// Declares `name` a variable (`variables:` or `secrets:`): its `${NAME…}` is substituted.
    func declare(_ name: String) { _ = state.withLock { $0.declared.insert(name) } }

    /// The names declared so far.
    var declared: Set<String> { state.withLock { $0.declared } }

    func record(_ use: Use) { state.withLock { if $0.recording { $0.uses.append(use) } } }

    /// Records nothing from now on: the manifest is loaded, and its steps' parameters are decoded
    /// again when they run (`ManifestStep.parameters()`), meeting the same uses.
    func stopRecording() { state.withLock { $0.recording = false } }

    /// How many uses are recorded: a mark for `uses(since:)`.
    var count: Int { state.withLock { $0.uses.count } }

    /// The uses recorded after `mark`.
    func uses(since mark: Int) -> [Use] { state.withLock { Array($0.uses[mark...]) } }
}
