import Foundation
import Milepost
import Testing

/// The version history of a file store written by the first Milepost release (state format 1, no
/// `app` label anywhere), read as it lies on disk.
struct VersionHistoryFileTests {
    static let journal = """
        {"event":"run-started","from":"0","host":"web-1","pid":7,"run":"a1","time":"2026-01-02T03:04:00.001Z","to":"1.0"}
        {"attempt":1,"event":"step-started","host":"web-1","pid":7,"run":"a1","step":"1.0/seed","time":"2026-01-02T03:04:00.010Z"}
        {"attempt":1,"duration_ms":5,"event":"step-succeeded","host":"web-1","pid":7,"run":"a1","step":"1.0/seed","time":"2026-01-02T03:04:00.015Z"}
        {"duration_ms":20,"event":"run-finished","from":"0","host":"web-1","outcome":"succeeded","pid":7,"run":"a1","time":"2026-01-02T03:04:00.021Z","to":"1.0"}
        {"duration_ms":3,"event":"run-finished","from":"1.0","host":"web-1","outcome":"succeeded","pid":8,"run":"a2","time":"2026-02-01T00:00:00.000Z","to":"1.0.0"}
        {"event":"baseline","from":"1.0","host":"web-1","pid":9,"run":"a3","time":"2026-03-01T00:00:00.000Z","to":"1.5"}
        {"duration_ms":4,"error":"1.6/x failed","event":"run-finished","from":"1.5","host":"web-1","outcome":"failed","pid":10,"run":"a4","step":"1.6/x","time":"2026-04-01T00:00:00.000Z","to":"1.6"}

        """

    static let state = """
        {
          "completed" : [
            {
              "at" : "2026-01-02T03:04:00.015Z",
              "fingerprint" : "9f2c",
              "id" : "1.0/seed",
              "run" : "a1"
            }
          ],
          "format" : 1,
          "updated_at" : "2026-03-01T00:00:00.000Z",
          "version" : "1.5"
        }

        """

    @Test
    func aFirstReleaseStoreAnswersEveryQuery() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("milepost-history-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try Data(Self.state.utf8).write(to: root.appendingPathComponent("state.json"))
        try Data(Self.journal.utf8).write(to: root.appendingPathComponent("journal.jsonl"))

        let history = try await FileStore(path: root.path).versionHistory()
        #expect(history.reached == [
            .init(version: "1.0", at: Timestamp("2026-01-02T03:04:00.021Z")!, run: "a1", source: .run),
            .init(version: "1.5", at: Timestamp("2026-03-01T00:00:00.000Z")!, run: "a3", source: .baseline),
        ])
        #expect(history.firstInstalledVersion == "1.0")
        #expect(history.previousVersion == "1.0")
        #expect(history.currentVersion == "1.5")
        #expect(!history.isFirstLaunch(of: Version("1.5")))
        #expect(history.isFirstLaunch(of: Version("1.6")))
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path).sorted() == ["journal.jsonl", "state.json"])
    }
}
