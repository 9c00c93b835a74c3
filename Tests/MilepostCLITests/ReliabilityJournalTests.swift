import Foundation
import Testing

/// A crash in the middle of a journal append leaves a torn last line; the next run repairs it
/// before appending, keeps every complete record, and the file stays valid JSONL.
@Suite struct ReliabilityJournalTests {
    static let manifest = """
        migrations:
          1: [{name: exec, id: one, with: {command: [true]}}]
          2: [{name: exec, id: two, with: {command: [true]}}]
        """

    /// Torn tails: cut inside a record, and cut inside a multi-byte character (`é` is C3 A9).
    @Test(arguments: [
        Array(#"{"event":"step-started","run":"r-torn","st"#.utf8),
        Array(#"{"error":"caf"#.utf8) + [0xC3],
    ])
    func aTornTailIsRepairedAndEarlierRecordsAreKept(tail: [UInt8]) throws {
        let work = try WorkDirectory()
        try work.write(Self.manifest, to: "milepost.yaml")
        #expect(try work.milepost.run("run", "--to", "1").status == 0)
        let complete = try work.read(".milepost/journal.jsonl")
        let handle = try #require(FileHandle(forWritingAtPath: work.path + "/.milepost/journal.jsonl"))
        try handle.seekToEnd()
        try handle.write(contentsOf: tail)
        try handle.close()

        let result = try work.milepost.run("run", "--to", "2")
        #expect(result.status == 0, "\(result.stderr)")
        let repaired = try work.read(".milepost/journal.jsonl")
        #expect(repaired.hasPrefix(complete), "every earlier complete record is kept as it was")
        let records = try ReliabilityFixture.journal(in: work)
        #expect(records.count == complete.filter { $0 == "\n" }.count + 4, "the second run's records follow directly")
        #expect(!records.contains { $0["run"] as? String == "r-torn" || $0["error"] as? String == "caf" })
        #expect(records.last?["event"] as? String == "run-finished")
        #expect(try work.milepost.run("history").status == 0)
    }
}
