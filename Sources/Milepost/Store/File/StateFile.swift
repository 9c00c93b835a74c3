import FoundationEssentials
import MilepostSystem

/// `state.json`: the stored state as pretty-printed JSON, replaced atomically; made durable when
/// the lock is released, `state.log` holding each commit until then (`StateLog`).
struct StateFile {
    /// The directory holding it.
    let directory: StoreDirectory
    static let name = "state.json"
    var path: String { directory.path(of: Self.name) }

    /// The prefix of the temp files of `write(_:)`; leftovers of a crashed writer start with it.
    static let tempPrefix = "state.json.tmp."

    // MARK: - Reading

    /// The stored state; nil when the file does not exist.
    /// - throws: `StoreError.unreadableState` when it exists but cannot be read or decoded, or has
    ///   a format this version does not know.
    func read() throws -> StoredState? {
        try readBytes().map { try StoredState.decode(json: $0, location: path) }
    }

    /// What decides whether a run is up to date, by a quick scan (`StoredStateHead`); when the scan
    /// cannot vouch for the file, by decoding it all (which throws as `read()` does).
    func readHead() throws -> StoredStateHead? {
        try readBytes().map { try StoredStateHead(json: $0) ?? StoredState.decode(json: $0, location: path).head }
    }

    /// The file's bytes; nil when it does not exist. A FIFO or device planted under the name is
    /// refused without waiting for a writer (`.nonBlocking`) or reading from it.
    private func readBytes() throws -> [UInt8]? {
        let bytes: [UInt8]
        let regular: Bool
        do throws(FileCallError) {
            guard let descriptor = try directory.openIfExists(Self.name, .readOnly, options: .nonBlocking) else { return nil }
            defer { FileCalls.close(descriptor) }
            let size = try FileCalls.regularFileSize(descriptor, path)
            regular = size != nil
            bytes = if let size { try FileCalls.readToEnd(descriptor, path, expected: size) } else { [] }
        } catch {
            throw StoreError.unreadableState(error)
        }
        guard regular else { throw StoreError.unreadableState(location: path, reason: .malformed("not a regular file")) }
        guard !bytes.isEmpty else { throw StoreError.unreadableState(location: path, reason: .malformed("the file is empty")) }
        return bytes
    }

    // MARK: - Writing

    /// Replaces the file atomically, without an fsync: a temp file in the same directory, written
    /// in full (`prepare`), then renamed over the file (`replace`). A commit appends the change to
    /// `state.log` between the two: that is its commit point. Durable once `sync()` and the
    /// directory's fsync have run (`StateLog.replay`); until then `state.log` holds the state.
    func write(_ state: StoredState) throws(FileCallError) {
        let prepared = try prepare(state)
        FailPoint.stateBeforeLog.reach()
        try replace(with: prepared)
    }

    /// A state written in full to a temp file of the directory, not yet in place.
    struct Prepared {
        let name: String
    }

    /// Writes `state` whole to a new temp file (`tempPrefix`); nothing of it is in place yet.
    func prepare(_ state: StoredState) throws(FileCallError) -> Prepared {
        let bytes = Self.encode(state)
        let tempName = Self.tempPrefix + "\(ProcessIdentity.pid).\(UInt32.random(in: .min ... .max))"
        let descriptor = try directory.open(tempName, .writeOnly, options: [.create, .exclusiveCreate])
        do throws(FileCallError) {
            defer { FileCalls.close(descriptor) }
            try FileCalls.write(descriptor, bytes, directory.path(of: tempName))
            FailPoint.stateAfterTempWrite.reach()
        } catch {
            discard(Prepared(name: tempName))
            throw error
        }
        return Prepared(name: tempName)
    }

    /// Renames the prepared temp file over the file; removes it when that fails.
    func replace(with prepared: Prepared) throws(FileCallError) {
        do throws(FileCallError) {
            try directory.rename(prepared.name, to: Self.name)
        } catch {
            discard(prepared)
            throw error
        }
        FailPoint.stateAfterRename.reach()
    }

    /// Removes a prepared temp file that will not be put in place.
    func discard(_ prepared: Prepared) {
        try? directory.remove(prepared.name)
    }

    /// fsyncs the file's data and metadata (not its name: that is the directory's).
    func sync() throws(FileCallError) {
        let descriptor = try directory.open(Self.name, .readOnly, options: .nonBlocking)
        defer { FileCalls.close(descriptor) }
        try FileCalls.sync(descriptor, path)
    }

    /// Removes the temp files left by writers that crashed before their rename.
    func removeStaleTempFiles() throws(FileCallError) {
        for name in try directory.entries() where name.hasPrefix(Self.tempPrefix) {
            try directory.remove(name)
        }
    }

    /// Pretty-printed JSON with sorted keys and a final newline, for people reading the file.
    static func encode(_ state: StoredState) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Encoding plain strings and numbers into JSON cannot fail.
        let data = try! encoder.encode(state)
        return Array(data) + [UInt8(ascii: "\n")]
    }
}
