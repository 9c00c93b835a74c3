import Foundation
import Testing

/// `status` reads only the end of the journal, and a journal line that is not a record does not
/// decide readiness: the state does. `history` reports such a line (exit 74).
@Suite struct ReliabilityJournalReadTests {
    static let manifest = "migrations:\n  1: [{name: exec, id: one, with: {command: [true]}}]\n"

    /// A store at 1 whose journal starts with a line that is not a record, followed by `padding`
    /// bytes of valid records, then the run's own records.
    static func storeWithABadLine(in work: WorkDirectory, padding: Int) throws {
        try work.write(Self.manifest, to: "milepost.yaml")
        let run = try work.milepost.run("run", "--to", "1")
        #expect(run.status == 0, "\(run.stderr)")
        let journal = try work.read(".milepost/journal.jsonl")
        let filler = #"{"event":"baseline","run":"r-old","time":"2026-01-01T00:00:00.000Z","to":"0.1"}"# + "\n"
        let padded = "this line is not a record\n" + String(repeating: filler, count: padding / filler.utf8.count + 1)
        try work.write(padded + journal, to: ".milepost/journal.jsonl")
    }

    /// 1 MiB of records after the bad line: `status` never reads that far back, so it neither
    /// fails nor warns, and still names the last run; `history` reads everything and exits 74.
    @Test func statusReadsOnlyTheEndOfTheJournal() throws {
        let work = try WorkDirectory()
        try Self.storeWithABadLine(in: work, padding: 1 << 20)
        let status = try work.milepost.run("status", "--check", "--to", "1", "--format", "json")
        #expect(status.status == 0, "\(status.stderr)")
        #expect(status.stderr.isEmpty, "\(status.stderr)")
        let last = try #require(try ReliabilityFixture.object(status.stdout)["last_run"] as? [String: Any])
        #expect(last["outcome"] as? String == "succeeded")
        let limited = try work.milepost.run("history", "--limit", "3")
        #expect(limited.status == 0, "\(limited.stderr)")

        let history = try work.milepost.run("history")
        #expect(history.status == 74)
        #expect(history.stderr.contains("line 1 is not a journal record"), "\(history.stderr)")
    }

    /// A bad line among the last records: `status --check` still answers from the state (exit 0
    /// when ready), warns that the last run is unknown, and names the line.
    @Test func aBadJournalLineDoesNotFailTheReadinessGate() throws {
        let work = try WorkDirectory()
        try Self.storeWithABadLine(in: work, padding: 0)
        let status = try work.milepost.run("status", "--check", "--to", "1")
        #expect(status.status == 0, "\(status.stderr)")
        #expect(status.stderr.contains("the last run is unknown"), "\(status.stderr)")
        #expect(status.stderr.contains("the line at byte 0 is not a journal record"), "\(status.stderr)")
        try work.write(Self.manifest + "  2: [{name: exec, id: two, with: {command: [true]}}]\n", to: "milepost.yaml")
        let notReady = try work.milepost.run("status", "--check", "--to", "2")
        #expect(notReady.status != 0 && notReady.status != 74, "\(notReady.stderr)")
    }
}
