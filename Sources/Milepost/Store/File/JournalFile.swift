import Foundation
import Glibc
import MilepostSystem

/// `journal.jsonl`: one compact JSON record per line, appended and never rewritten.
struct JournalFile {
    /// The directory holding it, fsynced when a durable batch creates the file.
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
            guard let descriptor = try directory.openIfExists(Self.name, O_RDONLY) else { return [] }
            defer { FileCalls.close(descriptor) }
            bytes = try FileCalls.readToEnd(descriptor, path)
        } catch {
            throw StoreError(error)
        }
        let decoder = JSONDecoder()
        var lines = bytes.split(separator: Self.newline, omittingEmptySubsequences: false)
        lines.removeLast()  // After the last newline: empty, or a torn line.
        return try lines.enumerated().map { index, line in
            do {
                return try decoder.decode(JournalRecord.self, from: Data(line))
            } catch let error as DecodingError {
                throw StoreError.io(location: path, reason: "line \(index + 1) is not a journal record: \(error.summary)")
            }
        }
    }

    // MARK: - Writing

    /// Appends each record with one `write(2)` of one line, then fsyncs when any record is durable.
    func append(_ records: [JournalRecord]) throws(FileCallError) {
        guard !records.isEmpty else { return }
        let descriptor = try directory.open(Self.name, O_WRONLY | O_APPEND | O_CREAT, mode: 0o644)
        defer { FileCalls.close(descriptor) }
        let isNew = try FileCalls.size(descriptor, path) == 0
        for record in records {
            try FileCalls.write(descriptor, Self.encode(record), path)
        }
        guard records.contains(where: \.isDurable) else { return }
        try FileCalls.sync(descriptor, path)
        if isNew { try directory.sync() }
    }

    /// Cuts a torn last line (the normal artefact of a crash mid-append, possibly mid-character)
    /// by truncating the file to just after its last newline, so the next append starts a line.
    func repairTail() throws(FileCallError) {
        guard let descriptor = try directory.openIfExists(Self.name, O_RDWR) else { return }
        defer { FileCalls.close(descriptor) }
        var end = try FileCalls.size(descriptor, path)
        guard end > 0, try FileCalls.read(descriptor, count: 1, at: end - 1, path) != [Self.newline] else { return }
        let chunkSize = 64 * 1024
        while end > 0 {
            let start = max(0, end - chunkSize)
            let chunk = try FileCalls.read(descriptor, count: end - start, at: start, path)
            if let last = chunk.lastIndex(of: Self.newline) {
                end = start + last + 1
                break
            }
            end = start
        }
        try FileCalls.truncate(descriptor, to: end, path)
        try FileCalls.sync(descriptor, path)
    }

    /// One line: compact JSON with sorted keys (the encoder does not keep declaration order),
    /// ending in a newline. JSON escapes newlines inside strings, so a record is one line.
    static func encode(_ record: JournalRecord) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding plain strings and numbers into JSON cannot fail.
        let data = try! encoder.encode(record)
        return Array(data) + [newline]
    }
}
