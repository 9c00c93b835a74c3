import Foundation
@testable import Milepost
import MilepostTestSupport

/// Shared fixtures of the store and journal tests (this file holds no tests itself).
enum StoreFixture {
    /// A fresh, uniquely named temporary directory, removed with everything in it when the
    /// test's suite instance goes away; `directory` is a store directory inside it, not created.
    typealias ScratchDirectory = MilepostTestSupport.ScratchDirectory

    static func holder(run: String = "run-a") -> LockHolder {
        LockHolder(pid: 4242, host: "test-host", since: Timestamp("2026-01-02T03:04:05.678Z")!, run: run)
    }

    static let state = StoredState(
        app: "shop", version: Version("2.1.0"),
        completed: [
            CompletedStep(id: "2.0.0/backfill", at: Timestamp("2026-01-02T03:04:05.678Z")!, run: "run-a", fingerprint: "f1"),
            CompletedStep(
                id: "2.1.0/reindex", at: Timestamp("2026-01-02T03:05:00.000Z")!, run: "run-a", fingerprint: "f2",
                via: "resolved"),
        ],
        inProgress: InProgressStep(
            id: "2.1.0/warm", run: "run-a", since: Timestamp("2026-01-02T03:06:00.000Z")!, attempt: 2, host: "test-host",
            pid: 4242),
        failed: FailedStep(id: "2.1.0/warm", run: "run-a", at: Timestamp("2026-01-02T03:05:30.000Z")!, error: "boom"),
        updatedAt: Timestamp("2026-01-02T03:06:00.000Z")!)

    static func record(_ event: JournalRecord.Event, step: String? = nil, error: String? = nil) -> JournalRecord {
        JournalRecord(
            time: Timestamp("2026-01-02T03:04:05.678Z")!, run: "run-a", event: event, step: step, attempt: step == nil ? nil : 1,
            error: error, host: "test-host", pid: 4242)
    }

    static func exists(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: path)
    }

    static func bytes(_ path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    static func write(_ bytes: [UInt8], to path: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }
}
