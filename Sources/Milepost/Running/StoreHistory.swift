import Logging
import Synchronization

/// A store's journal as one plan asks for it: read at most once however many of the plan's rules
/// need it (late steps, a fresh install, approvals), and only when one does. A journal with a line
/// that is not a record is nil to each rule, logged as a warning that starts with what that rule
/// cannot tell (`unknown`); the rule then decides from the state alone — the journal is the log,
/// the state decides.
final class StoreHistory: Sendable {
    private let store: any MilepostStore
    private let logger: Logger
    private let read = Mutex<Result<[JournalRecord], StoreError>?>(nil)

    init(store: any MilepostStore, logger: Logger) {
        self.store = store
        self.logger = logger
    }

    /// The whole journal, read the first time a rule asks; nil when a line of it is not a record.
    func records(else unknown: String) async throws -> [JournalRecord]? {
        let result: Result<[JournalRecord], StoreError>
        if let cached = read.withLock({ $0 }) {
            result = cached
        } else {
            do {
                result = .success(try await store.readJournal())
            } catch let error as StoreError {
                result = .failure(error)
            }
            read.withLock { $0 = result }
        }
        return try Self.readable(result, else: unknown, logger: logger)
    }

    /// The last `count` records of `store`'s journal, read now; nil when a line of them is not a
    /// record (logged as `records(else:)` logs it).
    static func tail(of store: any MilepostStore, last count: Int, else unknown: String, logger: Logger) async throws -> [JournalRecord]? {
        let result: Result<[JournalRecord], StoreError>
        do {
            result = .success(try await store.readJournal(last: count))
        } catch let error as StoreError {
            result = .failure(error)
        }
        return try readable(result, else: unknown, logger: logger)
    }

    /// The records read, or nil and a warning when the journal has a line that is not a record;
    /// any other error is thrown.
    private static func readable(
        _ result: Result<[JournalRecord], StoreError>, else unknown: String, logger: Logger
    ) throws(StoreError) -> [JournalRecord]? {
        switch result {
        case .success(let records):
            return records
        case .failure(let error):
            guard case .io(_, .malformed) = error else { throw error }
            logger.warning("\(unknown): \(error)")
            return nil
        }
    }
}
