import FoundationEssentials
import MilepostSystem

/// `journal.jsonl`: one compact JSON record per line, appended and never rewritten.
struct JournalFile {
    /// The directory holding it, fsynced when a synced append creates the file.
    let directory: StoreDirectory
    static let name = "journal.jsonl"
    var path: String { directory.path(of: Self.name) }

    private static let newline = UInt8(ascii: "\n")

    // MARK: - Reading

    /// Every complete record, oldest first; [] when the file does not exist. A last line without
    /// its newline (torn by a crash) is ignored.
    /// - throws: `StoreError.io` naming the line when a complete line is not a record.
    func read() throws -> [JournalRecord] {
        let bytes: [UInt8]
        do throws(FileCallError) {
            guard let descriptor = try directory.openIfExists(Self.name, .readOnly) else { return [] }
            defer { FileCalls.close(descriptor) }
            bytes = try FileCalls.readToEnd(descriptor, path)
        } catch {
            throw StoreError(error)
        }
        var lines = bytes.split(separator: Self.newline, omittingEmptySubsequences: false)
        lines.removeLast()  // After the last newline: empty, or a torn line.
        let decoder = JSONDecoder()
        return try lines.enumerated().map { index, line throws(StoreError) in
            try decode(line, at: "line \(index + 1)", with: decoder)
        }
    }

    /// The last `count` complete records, oldest first; fewer when the file has fewer. Reads the
    /// file backwards in 64 KiB chunks only as far as those records go, so the cost does not
    /// grow with the journal. A torn last line is ignored.
    /// - throws: `StoreError.io` naming the line (by its offset from the start) when one of those
    ///   lines is not a record.
    func read(last count: Int) throws -> [JournalRecord] {
        guard count > 0 else { return [] }
        let tail: LineTail
        do throws(FileCallError) {
            guard let descriptor = try directory.openIfExists(Self.name, .readOnly) else { return [] }
            defer { FileCalls.close(descriptor) }
            tail = try LineTail(descriptor, path: path, last: count)
        } catch {
            throw StoreError(error)
        }
        let decoder = JSONDecoder()
        return try tail.lines.suffix(count).map { line throws(StoreError) in
            try decode(line, at: "the line at byte \(tail.start + line.startIndex)", with: decoder)
        }
    }

    /// One line as a record.
    /// - throws: `StoreError.io` naming the line `place` and what is wrong with it.
    private func decode(
        _ line: ArraySlice<UInt8>, at place: String, with decoder: JSONDecoder
    ) throws(StoreError) -> JournalRecord {
        do {
            return try decoder.decode(JournalRecord.self, from: Data(line))
        } catch {
            throw .io(location: path, reason: .malformed("\(place) is not a journal record: \(DecodingError.summary(of: error))"))
        }
    }

    // MARK: - Writing

    /// Appends each record with one `write(2)` of one line, then fsyncs when `syncing` (and the
    /// directory too when that created the file). A commit's records are appended without:
    /// `state.log` holds them until `sync()`.
    func append(_ records: [JournalRecord], syncing: Bool) throws(FileCallError) {
        guard !records.isEmpty else { return }
        let descriptor = try directory.open(Self.name, .writeOnly, options: [.append, .create])
        defer { FileCalls.close(descriptor) }
        let isNew = try FileCalls.size(descriptor, path) == 0
        for record in records {
            try FileCalls.write(descriptor, Self.encode(record), path)
        }
        guard syncing else { return }
        try FileCalls.sync(descriptor, path)
        if isNew { try directory.sync() }
    }

    /// The file's length in bytes; 0 when it does not exist.
    func length() throws(FileCallError) -> Int {
        guard let descriptor = try directory.openIfExists(Self.name, .readOnly) else { return 0 }
        defer { FileCalls.close(descriptor) }
        return try FileCalls.size(descriptor, path)
    }

    /// fsyncs the file, when it exists (its name is the directory's to sync).
    func sync() throws(FileCallError) {
        guard let descriptor = try directory.openIfExists(Self.name, .readOnly) else { return }
        defer { FileCalls.close(descriptor) }
        try FileCalls.sync(descriptor, path)
    }

    /// Makes the file hold each commit's records at the offset `state.log` noted for them, in
    /// order: from the first commit whose records are not there in full (a crash came before or
    /// during their append, or a power cut lost them), the file is cut at that offset (or at its
    /// last newline, when shorter) and the records of that commit and every later one appended.
    func restore(_ commits: [(offset: Int, records: [JournalRecord])]) throws(FileCallError) {
        for (index, commit) in commits.enumerated() {
            let bytes = commit.records.flatMap(Self.encode)
            guard !bytes.isEmpty, try !holds(bytes, at: commit.offset) else { continue }
            try repairTail(cuttingAt: commit.offset)
            try append(commits[index...].flatMap(\.records), syncing: false)
            return
        }
    }

    /// True when the file holds exactly `bytes` at `offset`.
    private func holds(_ bytes: [UInt8], at offset: Int) throws(FileCallError) -> Bool {
        guard let descriptor = try directory.openIfExists(Self.name, .readOnly) else { return false }
        defer { FileCalls.close(descriptor) }
        return try FileCalls.read(descriptor, count: bytes.count, at: offset, path) == bytes
    }

    /// Cuts a torn last line (the normal artefact of a crash mid-append, possibly mid-character)
    /// by truncating the file to just after its last newline, and fsyncs it, so the next append
    /// starts a line. With `offset`, first cuts everything from `offset` on (`restore`, whose
    /// caller fsyncs the journal).
    func repairTail(cuttingAt offset: Int = .max) throws(FileCallError) {
        guard let descriptor = try directory.openIfExists(Self.name, .readWrite) else { return }
        defer { FileCalls.close(descriptor) }
        let size = try FileCalls.size(descriptor, path)
        let end = min(size, offset)
        guard end > 0, try FileCalls.read(descriptor, count: 1, at: end - 1, path) != [Self.newline] else {
            if end < size { try FileCalls.truncate(descriptor, to: end, path) }
            return
        }
        // Just after the last newline before `end`.
        let tail = try LineTail(descriptor, path: path, last: 0, end: end)
        try FileCalls.truncate(descriptor, to: tail.lines.last.map { tail.start + $0.endIndex + 1 } ?? 0, path)
        try FileCalls.sync(descriptor, path)
    }

    /// One line: compact JSON with sorted keys (the encoder does not keep declaration order),
    /// ending in a newline. JSON escapes newlines inside strings, so a record is one line.
    static func encode(_ record: JournalRecord) -> [UInt8] {
        record.json + [newline]
    }
}
