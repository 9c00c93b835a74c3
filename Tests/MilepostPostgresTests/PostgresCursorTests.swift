import Foundation
import Milepost
@testable import MilepostPostgres
import MilepostTestSupport
import Synchronization
import Testing

/// Cursors on the PostgreSQL store: kept in the state row (`in_progress`, `failed`), and, for a step
/// that runs in its checkpoint's transaction, committed in the same transaction as its writes.
@Suite(.enabled(if: TestServer.isConfigured, TestServer.missing))
struct PostgresCursorTests {
    /// A resumable `exec` step over 100 items with a cursor every tenth (`ItemScript`, as in the
    /// CLI suite's `ResumableCursorTests`), killed with its runner half way, once its cursor 50 is
    /// in the state row.
    static func killMidway(url: String, in directory: TestDirectory) async throws {
        try directory.write(ItemScript.manifest(resumable: true), to: "milepost.yaml")
        try directory.write("", to: "hold")
        let runner = try MilepostProcess(["run", "--store", url, "--to", "2.1"], in: directory.path)
        let store = PostgresStore(url: url)
        let deadline = ContinuousClock.now + .seconds(120)
        var holding = false
        while ContinuousClock.now < deadline, runner.process.isRunning {
            let cursor = try? await store.readState()?.inProgress?.cursor
            if ItemScript.processed(in: directory.path).count == ItemScript.holdAfter, cursor == String(ItemScript.lastCursor) {
                holding = true
                break
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        guard holding else {
            // Say why: the runner's own account, rather than only that the step never held.
            if runner.process.isRunning { kill(runner.pid, SIGKILL) }
            let (status, stderr) = try runner.wait()
            let processed = ItemScript.processed(in: directory.path).count
            throw NeverHeld(description: """
                the step never held after item \(ItemScript.holdAfter) with its cursor \(ItemScript.lastCursor) stored \
                (\(processed) items processed; the runner ended with \(status)): \(stderr)
                """)
        }
        kill(runner.pid, SIGKILL)
        let step = try #require(Int32(try await directory.waitFor("step.pid").trimmingCharacters(in: .whitespacesAndNewlines)))
        kill(-step, SIGKILL)
        _ = try runner.wait()
        try FileManager.default.removeItem(atPath: directory.path + "/hold")
        #expect(try await store.readState()?.inProgress?.cursor == String(ItemScript.lastCursor))
    }

    struct NeverHeld: Error, CustomStringConvertible {
        var description: String
    }

    @Test(.onItsOwnThread) func aKilledResumableExecStepResumesAtItsCursorOnThePlainNextRun() async throws {
        let url = TestServer.freshSchemaURL()
        let directory = try TestDirectory()
        try await Self.killMidway(url: url, in: directory)
        let store = PostgresStore(url: url)

        let next = try MilepostProcess.run(["run", "--store", url, "--to", "2.1"], in: directory.path)
        #expect(next.status == 0, "\(next.stderr)")
        #expect(directory.read("starts.txt") == "0\n\(ItemScript.lastCursor)\n")
        let processed = ItemScript.processed(in: directory.path)
        for item in 1...100 {
            #expect(processed.count { $0 == item } == ItemScript.timesProcessedAfterResume(item), "item \(item)")
        }
        #expect(try await store.readState()?.inProgress == nil)
    }

    /// A step added before the interrupted one, failing once: the interrupted step's mark is set
    /// aside in the state row (`set_aside`), and the next run resumes it at its cursor.
    @Test(.onItsOwnThread) func aStepAddedBeforeAnInterruptedOneLeavesItsCursorInPlace() async throws {
        let url = TestServer.freshSchemaURL()
        let directory = try TestDirectory()
        try await Self.killMidway(url: url, in: directory)
        let store = PostgresStore(url: url)
        try directory.write("""
            migrations:
              "2.0":
                - name: exec
                  id: first
                  with: {command: [sh, -c, 'echo ran >> first.txt; test ! -e first-fails']}
            """ + ItemScript.manifest(resumable: true).dropFirst("migrations:".count), to: "milepost.yaml")
        try directory.write("", to: "first-fails")
        let failing = try MilepostProcess.run(["run", "--store", url, "--to", "2.1"], in: directory.path)
        #expect(failing.status == 1, "\(failing.stderr)")
        let state = try #require(try await store.readState())
        #expect(state.failed?.id == "2.0/first")
        #expect(state.setAside == [.interrupted(try #require(state.interruptedMark(of: "2.1/items")))])
        #expect(state.interruptedMark(of: "2.1/items")?.cursor == String(ItemScript.lastCursor))

        try FileManager.default.removeItem(atPath: directory.path + "/first-fails")
        let next = try MilepostProcess.run(["run", "--store", url, "--to", "2.1"], in: directory.path)
        #expect(next.status == 0, "\(next.stderr)")
        #expect(directory.read("starts.txt") == "0\n\(ItemScript.lastCursor)\n")
        let after = try #require(try await store.readState())
        #expect(after.setAside.isEmpty && after.inProgress == nil && after.failed == nil)
    }

    /// Parameters of a test step that runs in its checkpoint's transaction, like the `sql` step.
    struct InTransaction: Decodable, StoreBoundParameters {
        func refusal(for store: any MilepostStore) -> String? { nil }
        var runsInCheckpointTransaction: Bool { true }
    }

    struct Broken: Error {}

    /// Each batch inserts its rows and commits its cursor: the rows and the cursor commit together,
    /// so after a failure the table holds exactly the batches before the cursor, and the next run
    /// goes on from there.
    @Test func aCursorCommitsTheStepsWritesInTheSameTransaction() async throws {
        // The step runs in this process, in a task of the shared pool, inside a transaction the
        // server ends once idle for the lease (30 s by default): a long lease, so that the pool's
        // backlog under the whole suite (the step waited 146 s once) cannot end it.
        let url = TestServer.freshSchemaURL() + "&milepost_lease=10m"
        let schema = PostgresStore(url: url).schema
        let directory = try TestDirectory()
        let failAfter = Mutex<Int?>(3)
        var registry = StepRegistry()
        registry.register("batches", parameters: InTransaction.self, resumable: true) { context in
            let scripts = try #require(context.scripts)
            var batch = Int(context.resumeCursor ?? "0")!
            if batch == 0 { try await scripts.run("CREATE TABLE \"\(schema)\".items (batch int)") }
            while batch < 5 {
                batch += 1
                try await scripts.run("INSERT INTO \"\(schema)\".items VALUES (\(batch)), (\(batch))")
                // A write after the last cursor, undone with the failed attempt.
                if failAfter.withLock({ $0 }) == batch - 1 { throw Broken() }
                try await context.commitCursor(String(batch))
            }
        }
        try directory.write("migrations:\n  \"1\":\n    - batches\n", to: "milepost.yaml")
        let manifest = try Manifest.load(path: directory.path + "/milepost.yaml", registry: registry)
        let runner = Runner(store: PostgresStore(url: url))

        #expect(try await runner.run(to: Version("1")) { manifest }.outcome == .failed)
        #expect(try await runner.store.readState()?.failed?.cursor == "3")
        #expect(try await TestServer.admin("SELECT string_agg(batch::text, ',' ORDER BY batch) FROM \"\(schema)\".items") == [["1,1,2,2,3,3"]])

        failAfter.withLock { $0 = nil }
        #expect(try await runner.run(to: Version("1")) { manifest }.outcome == .succeeded)
        #expect(try await TestServer.admin("SELECT string_agg(batch::text, ',' ORDER BY batch) FROM \"\(schema)\".items") == [["1,1,2,2,3,3,4,4,5,5"]])
    }

    /// A step that keeps its checkpoint transaction idle for longer than the lease (here a step
    /// body that sleeps; in life a starved or frozen process) loses it: the server ends the
    /// session. The step's error says so, instead of libpq's bare "server closed the connection".
    @Test func aStepWhoseTransactionSitsIdleLongerThanTheLeaseSaysWhyItWasEnded() async throws {
        let url = TestServer.freshSchemaURL() + "&milepost_lease=1s"
        let directory = try TestDirectory()
        var registry = StepRegistry()
        registry.register("idle", parameters: InTransaction.self) { context in
            let scripts = try #require(context.scripts)
            try await scripts.run("SELECT 1")
            try await Task.sleep(for: .seconds(3))
            try await scripts.run("SELECT 2")
        }
        try directory.write("migrations:\n  \"1\":\n    - idle\n", to: "milepost.yaml")
        let manifest = try Manifest.load(path: directory.path + "/milepost.yaml", registry: registry)
        let message: String
        do {
            let report = try await Runner(store: PostgresStore(url: url)).run(to: Version("1")) { manifest }
            #expect(report.outcome == .failed)
            message = try #require(report.steps.first?.error)
        } catch {
            // Under the whole suite the shared pool can keep the runner's own transaction (the
            // step's start) idle past this 1 s lease before the step pauses: the same explanation.
            message = "\(error)"
        }
        #expect(message.contains("the server ended the session after it sat idle in its transaction for "), "\(message)")
        #expect(message.contains("longer than the lease (milepost_lease=1s"), "\(message)")
    }
}

/// A running step's progress in the PostgreSQL store's state row, read by `milepost status` in
/// another process (as on another host).
@Suite(.onItsOwnThread, .enabled(if: TestServer.isConfigured, TestServer.missing))
struct PostgresProgressTests {
    @Test func statusFromAnotherProcessShowsTheRunningStepsProgress() async throws {
        let url = TestServer.freshSchemaURL()
        let directory = try TestDirectory()
        try directory.write("""
            migrations:
              "1":
                - {name: exec, id: long, with: {command: [sh, -c, 'echo "progress 42/200 copying" >&$MILEPOST_CONTROL_FD; echo x > reported; while [ -e hold ]; do sleep 0.01; done']}}
            """, to: "milepost.yaml")
        try directory.write("", to: "hold")
        let runner = try MilepostProcess(["run", "--store", url, "--to", "1"], in: directory.path)
        _ = try await directory.waitFor("reported")
        let store = PostgresStore(url: url)
        let deadline = ContinuousClock.now + .seconds(60)
        while try await store.readState()?.inProgress?.progress == nil, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        let status = try MilepostProcess(["status", "--store", url], in: directory.path)
        #expect(try status.wait().status == 0)
        try FileManager.default.removeItem(atPath: directory.path + "/hold")
        #expect(try runner.wait().status == 0)
        let text = try status.stdout()
        #expect(text.contains("RUNNING"), "\(text)")
        #expect(text.contains("  progress    42/200 (21%): copying\n"), "\(text)")
        #expect(text.contains("  heartbeat   20"), "\(text)")
    }
}
