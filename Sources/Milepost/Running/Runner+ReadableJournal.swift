extension Runner {
    /// The store's journal (its `last` records, when given), or nil when a line of it is not a
    /// record: logged as a warning that starts with `unknown` (what the caller cannot tell without
    /// it), and the caller decides from the state alone — the journal is the log, the state decides.
    func readableJournal(last count: Int? = nil, else unknown: String) async throws -> [JournalRecord]? {
        do {
            return if let count { try await store.readJournal(last: count) } else { try await store.readJournal() }
        } catch let error as StoreError {
            guard case .io(_, .malformed) = error else { throw error }
            logger.warning("\(unknown): \(error)")
            return nil
        }
    }
}
