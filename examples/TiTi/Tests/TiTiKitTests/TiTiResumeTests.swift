import Foundation
import Testing
import TiTiKit

/// `removeEmptyDailys` on a generated data set, `titi-migrate run --phase background` killed with
/// SIGKILL after some batches: a plain run leaves it as it is, the next background run resumes at
/// the stored cursor and the data ends exactly right.
extension TiTiMigrateTests {
    /// 50,000 dailys in batches of 5,000: ten saves of the file, each followed by a cursor.
    static let generatedCount = 50_000
    static let batch = 5_000

    @Test func aKilledRemoveEmptyDailysResumesAtItsCursorAndRemovesExactlyTheEmptyOnes() throws {
        let fixture = try TiTiFixture()
        let generated = GeneratedDailys.make(count: Self.generatedCount)
        try fixture.dailyFile.save(generated)
        let manifest = try String(contentsOfFile: fixture.manifest, encoding: .utf8)
        let batched = manifest.replacingOccurrences(
            of: "phase: background}", with: "phase: background, with: {batch: \(Self.batch)}}")
        #expect(batched != manifest)
        try batched.write(toFile: fixture.manifest, atomically: false, encoding: .utf8)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.binary)
        process.arguments = ["run", "--to", "2.1", "--phase", "background"]
        process.currentDirectoryURL = URL(fileURLWithPath: fixture.directory)
        process.environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("MILEPOST_") }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Killed once a batch is saved and its cursor committed, as a host that dies mid-way.
        let committed = Self.eventually { Self.storedCursor(in: fixture.directory) != nil }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(committed)
        #expect(process.terminationReason == .uncaughtSignal)

        let cursor = try #require(Self.storedCursor(in: fixture.directory))
        let position = try #require(Int(cursor))
        let expected = generated.filter { !$0.isEmpty }
        let midway = try fixture.dailys()
        #expect(position > 0 && position < expected.count, "cursor \(cursor)")
        // The file holds the batches before the cursor cleaned, and empty dailys after it.
        #expect(Array(midway.prefix(position)) == Array(expected.prefix(position)))
        #expect(midway.dropFirst(position).contains { $0.isEmpty })

        // The service's own start (a plain run) is not held by it and leaves it to the background run.
        let start = try titiMigrate("run", "--to", "2.1", in: fixture.directory)
        #expect(start.status == 0, "\(start.stderr)")
        #expect(Self.storedCursor(in: fixture.directory) == cursor)
        #expect(try fixture.dailys() == midway)

        let next = try titiMigrate("run", "--to", "2.1", "--phase", "background", in: fixture.directory)
        #expect(next.status == 0, "\(next.stderr)")
        #expect(next.stderr.contains("resuming interrupted step at its cursor"), "\(next.stderr)")
        #expect(try fixture.dailys() == expected)

        let journal = try Self.journal(in: fixture.directory)
        let started = journal.filter { $0["event"] as? String == "step-started" }
        #expect(started.map { $0["cursor"] as? String } == [nil, cursor])
        // The resumed attempt's first progress is the cursor: nothing before it was examined again.
        let resumedRun = try #require(started.last?["run"] as? String)
        let progress = journal.filter { $0["event"] as? String == "step-progress" && $0["run"] as? String == resumedRun }
        #expect(progress.first?["completed"] as? Int == position)
        let state = try Self.object(at: fixture.directory + "/.milepost/state.json")
        #expect(state["version"] as? String == "2.1")
        #expect(state["in_progress"] == nil)
    }

    static func storedCursor(in directory: String) -> String? {
        let state = try? object(at: directory + "/.milepost/state.json")
        return (state?["in_progress"] as? [String: Any])?["cursor"] as? String
    }

    static func object(at path: String) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    static func journal(in directory: String) throws -> [[String: Any]] {
        try String(contentsOfFile: directory + "/.milepost/journal.jsonl", encoding: .utf8)
            .split(separator: "\n")
            .map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
    }

    /// Polls `condition` every 2 ms for at most 60 s.
    static func eventually(_ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            if condition() { return true }
            usleep(2_000)
        }
        return false
    }
}
