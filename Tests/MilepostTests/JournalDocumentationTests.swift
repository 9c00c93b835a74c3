import Foundation
import Milepost
import Testing

/// docs/journal.md is the contract for programs that read the journal: every event and every
/// field a record can carry must be in its tables, so a new one cannot ship undocumented.
@Suite struct JournalDocumentationTests {
    let page: String

    init() throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        page = try String(contentsOf: repository.appendingPathComponent("docs/journal.md"), encoding: .utf8)
    }

    /// The first column of the Markdown table whose header starts with `header`.
    private func firstColumn(ofTableStartingWith header: String) -> Set<String> {
        let lines = page.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(where: { $0.hasPrefix(header) }) else { return [] }
        var cells: Set<String> = []
        for line in lines[(start + 2)...] {
            guard line.hasPrefix("|") else { break }
            let cell = line.split(separator: "|").first ?? ""
            cells.insert(cell.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "`")))
        }
        return cells
    }

    @Test func everyEventIsDocumented() {
        let documented = firstColumn(ofTableStartingWith: "| Event |")
        let events = Set(JournalRecord.Event.allCases.map(\.rawValue))
        #expect(events.subtracting(documented).sorted() == [], "events missing from docs/journal.md")
        #expect(documented.subtracting(events).sorted() == [], "docs/journal.md lists events the code does not have")
    }

    @Test func everyOutcomeIsDocumented() throws {
        let row = try #require(page.split(separator: "\n").first { $0.hasPrefix("| `outcome` |") })
        let documented = Set(row.split(separator: "`").enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) })
        let outcomes = Set(JournalRecord.Outcome.allCases.map(\.rawValue))
        #expect(outcomes.subtracting(documented).sorted() == [], "outcomes missing from docs/journal.md")
        #expect(documented.subtracting(outcomes).subtracting(["outcome", "run-finished", "resolved"]).sorted() == [],
                "docs/journal.md lists outcomes the code does not have")
    }

    @Test func everyFieldIsDocumented() throws {
        let documented = firstColumn(ofTableStartingWith: "| Field |")
        // A record with every field set names every key the encoder can write.
        var record = JournalRecord(time: Timestamp("2026-01-02T03:04:00.001Z")!, run: "r", event: .runFinished)
        record.app = "a"; record.from = "1"; record.to = "2"; record.step = "2/s"; record.attempt = 1
        record.durationMs = 1; record.error = "e"; record.outcome = .succeeded; record.host = "h"
        record.pid = 1; record.previousRun = "p"; record.cursor = "c"; record.stderr = "s"
        record.completed = 1; record.total = 2; record.message = "m"; record.phase = .background
        record.fingerprint = "f"; record.by = "b"; record.plan = "p"
        let unset = Mirror(reflecting: record).children.filter { child in
            let value = Mirror(reflecting: child.value)
            return value.displayStyle == .optional && value.children.isEmpty
        }.compactMap(\.label)
        #expect(unset == [], "set these new fields above so their keys are checked")
        let object = try #require(JSONSerialization.jsonObject(with: JSONEncoder().encode(record)) as? [String: Any])
        let fields = Set(object.keys)
        #expect(fields.subtracting(documented).sorted() == [], "fields missing from docs/journal.md")
        #expect(documented.subtracting(fields).sorted() == [], "docs/journal.md lists fields the code does not write")
    }
}
