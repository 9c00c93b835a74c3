import Milepost

extension FuzzTarget {
    /// `journal.jsonl` as a crash (a torn last line), a disk or another writer can leave it, read
    /// without the lock as `status`, `history` and the runner read it: whole, and backwards by its
    /// last records. An input whose length is a multiple of 16 is read again followed by a long
    /// record that puts the input across the backward reader's 64 KiB chunk boundary (one input in
    /// sixteen: scanning 64 KiB more costs fifty times the input's own reading).
    static let journal = FuzzTarget(
        name: "journal",
        summary: "journal.jsonl bytes → FileStore.readJournal() and readJournal(last:); the last records read backwards "
            + "are the whole read's last records; the records read write back and read back the same"
    ) { bytes in
        try await checkJournal(bytes)
        if bytes.count % 16 == 0 { try await checkJournal(bytes + journalFiller(bytes: 65_536 - bytes.count / 2)) }
    }

    private static func checkJournal(_ bytes: [UInt8]) async throws {
        try await withStoreDirectory(["journal.jsonl": bytes]) { directory in
            let store = FileStore(path: directory)
            let whole = try await storeResult { try await store.readJournal() }
            guard case .success(let records) = whole else {
                for count in [1, 2, 3] { _ = try await storeResult { try await store.readJournal(last: count) } }
                return
            }
            for count in Set([1, 2, 3, records.count, records.count + 1]).sorted() where count > 0 {
                let last = try await storeResult { try await store.readJournal(last: count) }
                guard case .success(let tail) = last else {
                    throw FuzzFinding("the journal reads whole, but its last \(count) records do not: \(last)")
                }
                try oracle(tail == Array(records.suffix(count)), "the last \(count) records read backwards are not the whole read's")
            }
            guard !records.isEmpty else { return }
            try await withStoreDirectory(["journal.jsonl": records.flatMap { $0.json + [UInt8(ascii: "\n")] }]) { again in
                let reread = try await FileStore(path: again).readJournal()
                try oracle(reread == records, "the records read do not write back and read back the same")
            }
        }
    }

    /// One record of `bytes` bytes with its newline (none when a record cannot be that short).
    private static func journalFiller(bytes: Int) -> [UInt8] {
        let record = JournalRecord(time: Timestamp(millisecondsSince1970: 0), run: "fuzz", event: .stepProgress, message: "")
        let empty = record.json.count + 1
        guard bytes >= empty else { return [] }
        var filler = record
        filler.message = String(repeating: "x", count: bytes - empty)
        return filler.json + [UInt8(ascii: "\n")]
    }
}
