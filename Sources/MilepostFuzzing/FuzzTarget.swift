/// One input Milepost reads from outside the program, or from a crash, with the oracle its reader
/// must satisfy whatever the bytes: never crash, never hang, throw only the errors it documents,
/// never accept what the strict reader refuses, and read back what it writes. `milepost-fuzz
/// --target=NAME` hands it to libFuzzer; `FuzzCorpusTests` replays its corpus, `fuzz/corpus/NAME`.
package struct FuzzTarget: Sendable {
    /// The name of `--target=` and of its corpus folder.
    package let name: String
    /// What the bytes are, and what the oracle holds the reader to.
    package let summary: String
    /// Reads one input; throws a `FuzzFinding` (or any error the reader should not have thrown)
    /// when the oracle does not hold.
    package let test: @Sendable ([UInt8]) async throws -> Void

    package init(name: String, summary: String, test: @escaping @Sendable ([UInt8]) async throws -> Void) {
        self.name = name
        self.summary = summary
        self.test = test
    }
}

/// An oracle that did not hold for an input.
package struct FuzzFinding: Error, CustomStringConvertible {
    package let description: String

    package init(_ description: String) { self.description = description }
}

/// Throws a `FuzzFinding` saying `message` unless `condition` holds.
func oracle(_ condition: Bool, _ message: @autoclosure () -> String) throws(FuzzFinding) {
    guard condition else { throw FuzzFinding(message()) }
}
