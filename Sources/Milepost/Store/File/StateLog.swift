import FoundationEssentials
import MilepostSystem
import SystemPackage

/// `state.log`: the file store's write-ahead log, internal to the store. While a process holds the
/// lock, each commit appends one line (the whole new state and the commit's journal records) and
/// fdatasyncs it: that line is the commit point. `state.json` and `journal.jsonl` are then updated
/// without an fsync, and made durable once, when the lock is released (`LockedFileStore`), which
/// removes the log. So the file exists only while a run holds the lock, or after a crash: the next
/// holder of the lock replays it (`StateLogRecovery`), and readers without the lock take the state
/// from its last line (`FileStore.readState`).
struct StateLog {
    let directory: StoreDirectory
    static let name = "state.log"
    var path: String { directory.path(of: Self.name) }

    private static let newline = UInt8(ascii: "\n")

    /// One commit: the new state, the records appended to the journal with it, and the journal's
    /// length in bytes before them (where recovery looks for them).
    struct Entry: Codable {
        var journalOffset: Int
        var records: [JournalRecord]
        var state: StoredState

        enum CodingKeys: String, CodingKey {
            case journalOffset = "journal_offset"
            case records, state
        }
    }

    // MARK: - Writing

    /// `state.log` as the appends of one holder of the lock opened it.
    struct Open {
        let descriptor: FileDescriptor
        /// The log's name is durable in the directory: a `.disk` append synced the directory.
        var isNamed: Bool
    }

    /// Appends `entry` as one line (in two `write(2)`s, the fail point `state-log-torn` between
    /// them; readers ignore a line without its newline) and, for a `.disk` commit, fdatasyncs the
    /// file (and the lines of `.process` commits before it), and fsyncs the directory the first
    /// time, so the file's name survives a power cut with its lines. A `.process` commit's line
    /// is left to the page cache: a process that dies leaves it to the next holder, a power cut
    /// may leave it torn or lose it, which readers take as a commit never made. A line that fails
    /// part-way is cut off again.
    /// - parameter log: the log opened by an earlier append of this holder; nil for the first.
    /// - returns: the log to pass to the next append (its descriptor closed by `replay`).
    func append(_ entry: Entry, to log: Open?, durability: CommitDurability) throws(FileCallError) -> Open {
        var open = if let log { log } else { Open(descriptor: try directory.open(Self.name, .writeOnly, options: [.append, .create]), isNamed: false) }
        var end: Int?
        do throws(FileCallError) {
            end = try FileCalls.size(open.descriptor, path)
            let line = Self.encode(entry)
            let half = line.count / 2
            try FileCalls.write(open.descriptor, Array(line[..<half]), path)
            FailPoint.stateLogTorn.reach()
            try FileCalls.write(open.descriptor, Array(line[half...]), path)
            if durability == .disk {
                try FileCalls.syncData(open.descriptor, path)
                if !open.isNamed { try directory.sync() }
                open.isNamed = true
            }
        } catch {
            // A line cut short by a full disk would glue itself to the next commit's: cut it off.
            if let end { try? FileCalls.truncate(open.descriptor, to: end, path) }
            if log == nil { FileCalls.close(open.descriptor) }
            throw error
        }
        return open
    }

    /// The length past which the holder replays the log after a commit: each line holds the whole
    /// state, so a long run's log would grow with the square of its steps, and a replay reads all
    /// of it. A replay costs three fsyncs, and the next commit one more (recreating the log): with
    /// 1,000 completed steps (a line of about 100 KiB) that is four per forty commits or so; a
    /// 20-step run never reaches it.
    static let replayLength = 4 << 20

    /// True when the log open as `descriptor` is `replayLength` long or longer.
    func isLong(_ descriptor: FileDescriptor) throws(FileCallError) -> Bool {
        try FileCalls.size(descriptor, path) >= Self.replayLength
    }

    /// Removes the file. The caller syncs the directory.
    func remove() throws(FileCallError) {
        do throws(FileCallError) {
            try directory.remove(Self.name)
        } catch where error.errno == .noSuchFileOrDirectory {}
    }

    /// One line: compact JSON with sorted keys; the records encoded as in `journal.jsonl`.
    static func encode(_ entry: Entry) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding plain strings and numbers into JSON cannot fail.
        return Array(try! encoder.encode(entry)) + [newline]
    }

    // MARK: - Reading

    /// Every complete line, oldest first; [] when there is no log. A last line without its newline
    /// (torn: its fdatasync never returned, so it was never committed) is ignored.
    /// Lines after the last commit that do not decode are ignored too: a power cut can leave the
    /// bytes after the last fdatasync half-written.
    /// - throws: `StoreError.unreadableState` naming the log when a line that is not a commit is
    ///   followed by one, or a commit holds a state of a format this version does not know.
    func entries() throws -> [Entry] {
        let bytes: [UInt8]
        do throws(FileCallError) {
            guard let descriptor = try directory.openIfExists(Self.name, .readOnly, options: .nonBlocking) else { return [] }
            defer { FileCalls.close(descriptor) }
            bytes = try FileCalls.readToEnd(descriptor, path)
        } catch {
            throw StoreError.unreadableState(error)
        }
        var lines = bytes.split(separator: Self.newline, omittingEmptySubsequences: false)
        lines.removeLast()  // After the last newline: empty, or a torn line.
        let decoder = JSONDecoder()
        var entries: [Entry] = []
        var firstBad: (line: Int, error: any Error)?
        for (index, line) in lines.enumerated() {
            do {
                let entry = try commit(line, decoder: decoder)
                // A commit after a line that is not one: the log is damaged, not torn by a crash.
                if let bad = firstBad {
                    throw StoreError.unreadableState(
                        location: path, reason: .malformed("line \(bad.line) is not a commit: \(DecodingError.summary(of: bad.error))"))
                }
                entries.append(entry)
            } catch let error as StoreError {
                throw error
            } catch {
                // Bytes after the last fdatasync that a power cut left half-written: never committed.
                firstBad = firstBad ?? (index + 1, error)
            }
        }
        return entries
    }

    /// True when the file exists, from one `openat(2)` that creates nothing: a crash (or a holder
    /// of the lock, right now) left commits that `state.json` may not show yet.
    func exists() throws(FileCallError) -> Bool {
        guard let descriptor = try directory.openIfExists(Self.name, .readOnly, options: .nonBlocking) else { return false }
        FileCalls.close(descriptor)
        return true
    }

    /// What the end of the log holds, read backwards only as far as its last complete line.
    enum End {
        /// There is no log: `state.json` is the state.
        case absent
        /// The log holds no complete line (its first append was torn): nothing in it was committed.
        case empty
        /// The last complete line: the last commit, unless a power cut left it half-written.
        case line(ArraySlice<UInt8>)
    }

    /// The log's last complete line, without reading the rest: what a reader without the lock
    /// needs (`FileStore`), at a cost that does not grow with the log. A line before it that is not
    /// a commit is not seen here; `entries()` (the replay) reports it.
    func end() throws(FileCallError) -> End {
        guard let descriptor = try directory.openIfExists(Self.name, .readOnly, options: .nonBlocking) else { return .absent }
        defer { FileCalls.close(descriptor) }
        return try LineTail(descriptor, path: path, last: 1).lines.last.map(End.line) ?? .empty
    }

    /// `line` as a commit; nil when it is not one.
    /// - throws: `StoreError.unreadableState` (`.unknownFormat`) for a commit of a state of a format
    ///   this version does not know (a newer Milepost's): it is read no more than its `state.json` would be.
    func decode(_ line: ArraySlice<UInt8>) throws(StoreError) -> Entry? {
        do {
            return try commit(line, decoder: JSONDecoder())
        } catch let error as StoreError {
            throw error
        } catch {
            return nil
        }
    }

    /// `line` as a commit. A line whose state names a format this version does not know is refused
    /// as such whether or not the rest of it decodes (as `StoredState.decode(json:)` probes
    /// `state.json`): taken for a torn line instead, the replay would delete a newer Milepost's commit.
    /// - throws: `StoreError.unreadableState` (`.unknownFormat`), or why the line is not a commit.
    private func commit(_ line: ArraySlice<UInt8>, decoder: JSONDecoder) throws -> Entry {
        let data = Data(line)
        let entry: Entry
        do {
            entry = try decoder.decode(Entry.self, from: data)
        } catch {
            if let format = try? decoder.decode(FormatProbe.self, from: data).state.format {
                try StoredState.checkFormat(format, location: path)
            }
            throw error
        }
        try StoredState.checkFormat(entry.state.format, location: path)
        return entry
    }

    /// Just a commit's state's `format`, read when the whole line does not decode.
    private struct FormatProbe: Decodable {
        struct State: Decodable { var format: Int }
        var state: State
    }
}
