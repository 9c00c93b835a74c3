import Synchronization

/// A small answer about a type, worked out once per type and kept for the process: for what
/// conformance checks of the type decide (`type is any P.Type`), each a lookup in the Swift runtime
/// that the decoders would otherwise pay for every value they decode.
///
/// The answer is a byte (a caller's raw enum or flags), not a generic value: callers in other
/// modules run this class unspecialised, and a generic one instantiated its storage's metadata
/// and searched `(type, value)` pairs generically on every call, ≈ 4,800 instructions a value —
/// 191 M of a 1 MiB manifest's load of 838 M (docs/performance.md).
package final class PerTypeMemo: Sendable {
    /// The types asked about so far and their answers, at the same positions. Searched in order:
    /// a program asks about a few dozen types at most, and comparing them costs less than hashing one.
    private let known = Mutex<(types: [ObjectIdentifier], answers: [UInt8])>(([], []))
    private let compute: @Sendable (Any.Type) -> UInt8

    /// A memo of `compute`, which must give the same answer for a type every time.
    package init(_ compute: @escaping @Sendable (Any.Type) -> UInt8) {
        self.compute = compute
    }

    /// `compute(type)`, from the memo after the first time.
    package func callAsFunction(_ type: Any.Type) -> UInt8 {
        let key = ObjectIdentifier(type)
        if let answer = known.withLock({ known in known.types.firstIndex(of: key).map { known.answers[$0] } }) { return answer }
        let answer = compute(type)
        known.withLock { known in
            if !known.types.contains(key) {
                known.types.append(key)
                known.answers.append(answer)
            }
        }
        return answer
    }
}
