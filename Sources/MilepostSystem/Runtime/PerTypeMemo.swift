import Synchronization

/// A value worked out once per type and kept for the process. For what a conformance check of a
/// type decides (`type is any P.Type`): each check is a lookup in the Swift runtime, which the
/// decoders would otherwise pay for every value they decode.
package final class PerTypeMemo<Value: Sendable>: Sendable {
    /// Searched in order: a program asks about a few dozen types at most, and comparing them
    /// costs less than hashing one.
    private let known = Mutex<[(type: ObjectIdentifier, value: Value)]>([])
    private let compute: @Sendable (Any.Type) -> Value

    /// A memo of `compute`, which must give the same value for a type every time.
    package init(_ compute: @escaping @Sendable (Any.Type) -> Value) {
        self.compute = compute
    }

    /// `compute(type)`, from the memo after the first time.
    package func callAsFunction(_ type: Any.Type) -> Value {
        let key = ObjectIdentifier(type)
        if let value = known.withLock({ known in known.first { $0.type == key }?.value }) { return value }
        let value = compute(type)
        known.withLock { known in
            if !known.contains(where: { $0.type == key }) { known.append((key, value)) }
        }
        return value
    }
}
