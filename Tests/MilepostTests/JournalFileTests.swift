import Foundation
import Testing
@testable import Milepost

@Suite struct JournalFileTests {
    let scratch: StoreFixture.ScratchDirectory

    init() throws { scratch = try StoreFixture.ScratchDirectory() }

    let records = [
        StoreFixture.record(.runStarted),
        StoreFixture.record(.stepStarted, step: "2.0.0/backfill"),
        StoreFixture.record(.stepFailed, step: "2.0.0/backfill", error: "line one\nline two: café ☕"),
    ]

    @Test func appendThenRead() async throws {
        let directory = scratch.directory
        let store = FileStore(path: directory)
        let locked = try await store.lock(timeout: .zero, holder: StoreFixture.holder())
        try await locked.append(Array(records[..<2]))
        try await locked.append([])
        try await locked.append([records[2]])
        await locked.release()
        #expect(try await store.readJournal() == records)
    }

    @Test func oneCompactLinePerRecordWithSortedKeys() async throws {
        let directory = scratch.directory
        let locked = try await FileStore(path: directory).lock(timeout: .zero, holder: StoreFixture.holder())
        var record = StoreFixture.record(.runFinished)
        record.durationMs = 1500
        record.outcome = .succeeded
        try await locked.append(records + [record])
        await locked.release()

        let text = String(decoding: try StoreFixture.bytes(directory + "/journal.jsonl"), as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 5)
        #expect(lines.last == "")
        #expect(
            lines[3]
                == #"{"duration_ms":1500,"event":"run-finished","host":"test-host","outcome":"succeeded","pid":4242,"run":"run-a","time":"2026-01-02T03:04:05.678Z"}"#
        )
        for line in lines.dropLast() {
            #expect(try JSONSerialization.jsonObject(with: Data(line.utf8)) is [String: Any])
        }
    }

    /// Cuts the journal in its last record: right after the previous newline (nothing torn),
    /// mid-line, and in the middle of the 3-byte UTF-8 encoding of ☕ (E2 98 95).
    @Test(arguments: ["after-newline", "mid-line", "mid-character"])
    func tornTailIsIgnoredThenRepairedByTheNextLock(cut: String) async throws {
        let directory = scratch.directory
        let store = FileStore(path: directory)
        let path = directory + "/journal.jsonl"
        let first = try await store.lock(timeout: .zero, holder: StoreFixture.holder())
        try await first.append(records)
        await first.release()

        let whole = try StoreFixture.bytes(path)
        let intact = Array(records[..<2].map(JournalFile.encode).joined())
        let end = switch cut {
        case "after-newline": intact.count
        case "mid-line": intact.count + 10
        default: try #require(whole.firstIndex(of: 0xE2)) + 2
        }
        let torn = Array(whole[..<end])
        try StoreFixture.write(torn, to: path)

        #expect(try await store.readJournal() == Array(records[..<2]))
        #expect(try StoreFixture.bytes(path) == torn)  // Reading repairs nothing.

        let second = try await store.lock(timeout: .zero, holder: StoreFixture.holder())
        #expect(try StoreFixture.bytes(path) == intact)
        try await second.append([records[2]])
        await second.release()
        #expect(try await store.readJournal() == records)
        #expect(try StoreFixture.bytes(path) == whole)
    }

    @Test func aJournalWithOnlyATornLineIsEmptiedByTheNextLock() async throws {
        let directory = scratch.directory
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        let path = directory + "/journal.jsonl"
        try StoreFixture.write(Array(#"{"time":"2026"#.utf8), to: path)
        let store = FileStore(path: directory)
        #expect(try await store.readJournal() == [])

        try await store.lock(timeout: .zero, holder: StoreFixture.holder()).release()
        #expect(try StoreFixture.bytes(path) == [])
    }

    @Test func aCompleteLineThatIsNotARecordIsAnErrorNamingTheLine() async throws {
        let directory = scratch.directory
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        let path = directory + "/journal.jsonl"
        try StoreFixture.write(JournalFile.encode(records[0]) + Array("{\"time\": 1}\n".utf8), to: path)

        let error = try await #require(throws: StoreError.self) {
            try await FileStore(path: directory).readJournal()
        }
        guard case .io(let location, let reason) = error else {
            Issue.record("expected io, got \(error)")
            return
        }
        #expect(location == path)
        #expect(reason.description.hasPrefix("line 2 is not a journal record: "), "\(reason)")
    }

    /// The tail read gives exactly the whole read's last records, across 64 KiB chunk boundaries,
    /// ignores a torn last line, and never reads (so never trips on) a bad line before its records.
    @Test func readingTheLastRecordsMatchesTheWholeJournal() async throws {
        let directory = scratch.directory
        let store = FileStore(path: directory)
        let locked = try await store.lock(timeout: .zero, holder: StoreFixture.holder())
        let many = (1...3_000).map { StoreFixture.record(.stepSucceeded, step: "1/step-\($0)") }
        try await locked.append(many)
        await locked.release()
        for count in [1, 2, 255, 256, 700, 2_999, 3_000, 5_000] {
            #expect(try await store.readJournal(last: count) == Array(many.suffix(count)), "last \(count)")
        }

        let path = directory + "/journal.jsonl"
        let bytes = try StoreFixture.bytes(path)
        try StoreFixture.write(Array("not a record\n".utf8) + bytes + Array(#"{"torn"#.utf8), to: path)
        #expect(try await store.readJournal(last: 3_000) == many)
        let error = try await #require(throws: StoreError.self) { try await store.readJournal(last: 3_001) }
        #expect(error == .io(location: path, reason: .malformed(
            "the line at byte 0 is not a journal record: The given data was not valid JSON.")), "\(error)")
    }
}
