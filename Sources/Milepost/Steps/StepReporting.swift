/// How a running step's context reaches the runner: the cursors it commits, the process group it
/// spawned and the tail of its output. The runner builds one per attempt; it refuses cursors once
/// the attempt has ended.
struct StepReporting: Sendable {
    /// Makes a cursor durable in the store, then returns.
    var commitCursor: @Sendable (String) async throws -> Void
    /// Records how far the step got: completed, total, message.
    var reportProgress: @Sendable (Int, Int?, String?) async -> Void
    /// Records the process group the step's work runs in, in its in-progress mark (durable against
    /// the runner's death), then returns.
    var recordProcessGroup: @Sendable (Int32) async throws -> Void
    /// Keeps the tail of the step's stderr, stored with a failure or an interruption.
    var recordStderrTail: @Sendable (String) async -> Void
}

/// A cursor the runner refuses to store.
public struct StepCursorError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The cursor's length in bytes (UTF-8).
    public let bytes: Int

    public var description: String {
        "a cursor is at most \(StepCursorError.maximumBytes) bytes (UTF-8), and this one has \(bytes)"
    }

    /// The longest cursor a store keeps: 4 KiB of UTF-8.
    public static let maximumBytes = 4096

    /// Throws when `cursor` is longer than `maximumBytes`.
    static func check(_ cursor: String) throws(StepCursorError) {
        let bytes = cursor.utf8.count
        guard bytes <= maximumBytes else { throw StepCursorError(bytes: bytes) }
    }
}

/// A revert tried to commit a cursor: reverts start over after an interruption, so they keep none.
public struct RevertCursorError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String { "a revert cannot commit a cursor: after an interruption it starts over" }
}
