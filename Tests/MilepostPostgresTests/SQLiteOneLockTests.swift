import Foundation
import MilepostTestSupport
import Testing

/// One SQLite database, one lock, whatever the path it is reached by; and a runner that got in
/// without that lock anyway finds the state changed under it and runs nothing.
@Suite(.onItsOwnThread) struct SQLiteOneLockTests {
    /// One step, `1.0/insert` (`sqlite`: a row in `t`; `exec`: a line in `ran.txt`), after a
    /// `before_run` hook that holds each run until its go file exists: the first run to reach it
    /// waits for `go-1` (after touching `ready-1`), the second for `go-2`.
    static func gatedManifest(step: String) -> String {
        let body = step == "sqlite"
            ? #"{name: sqlite, id: insert, with: {sql: "CREATE TABLE IF NOT EXISTS t (x); INSERT INTO t VALUES (1)"}}"#
            : #"{name: exec, id: insert, with: {command: [sh, -c, 'echo "$MILEPOST_STEP" >> ran.txt']}}"#
        return """
            hooks:
              before_run:
                - {name: exec, id: gate, with: {command: [sh, -c, 'if mkdir first.d 2>/dev/null; then n=1; else n=2; fi; touch ready-$n; while [ ! -e go-$n ]; do sleep 0.05; done']}}
            migrations:
              "1.0":
                - \(body)
            """
    }

    /// How the first runner names the database the second names `sqlite:real.db`.
    enum Spelling: String, CaseIterable {
        case link, dotted, absolute, linkedDirectory

        func spec(in directory: String) -> String {
            switch self {
            case .link: "sqlite:link.db"
            case .dotted: "sqlite:./sub/../real.db"
            case .absolute: "sqlite://" + directory + "/real.db"
            case .linkedDirectory: "sqlite:here/real.db"
            }
        }
    }

    /// Two runners at once, through two paths to one database (existing, or not created yet when
    /// the first takes its lock: a link to it then dangles): the second waits for the first's lock
    /// and finds the step done, instead of running the `sqlite` step again on a plan made before
    /// the first committed. Only one lock file exists, beside the database itself.
    @Test(arguments: Spelling.allCases, [true, false])
    func twoPathsToOneDatabaseTakeOneLock(spelling: Spelling, created: Bool) async throws {
        let directory = try TestDirectory()
        try directory.write(Self.gatedManifest(step: "sqlite"), to: "milepost.yaml")
        try FileManager.default.createDirectory(atPath: directory.path + "/sub", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: directory.path + "/link.db", withDestinationPath: "real.db")
        try FileManager.default.createSymbolicLink(atPath: directory.path + "/here", withDestinationPath: directory.path)
        if created { try directory.write("", to: "real.db") }
        let first = try MilepostProcess(["run", "--store", spelling.spec(in: directory.path), "--to", "1.0"], in: directory.path)
        #expect(try await eventually { directory.read("ready-1") != nil })
        let second = try MilepostProcess(["run", "--store", "sqlite:real.db", "--to", "1.0", "--lock-timeout", "60s"], in: directory.path)
        // The second runner has a lock file open: the first's (it waits), or one of its own (it goes on to its hook).
        #expect(try await eventually { Self.openLockFiles(of: second.pid).count == 1 })
        try await Task.sleep(for: .milliseconds(500))
        let (firstResult, secondResult) = try await Self.releaseInTurn(first, second, in: directory)
        #expect(firstResult.status == 0, "\(firstResult.stderr)")
        #expect(secondResult.status == 0, "\(secondResult.stderr)")
        #expect(try SQLiteProcessTests.query(directory.path + "/real.db", "SELECT count(*) FROM t") == [["1"]], "both runners ran the step")
        let locks = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".milepost-lock") }
        #expect(locks == ["real.db.milepost-lock"])
    }

    /// A runner whose lock file was removed while another held it (so both "hold" the lock) plans
    /// from the state it read; the other runs the step and commits. The first one's step, in its
    /// checkpoint's transaction (`sqlite`) or behind its in-progress mark (`exec`), checks that
    /// the state is still the one it planned from: it is not, so the step does not run again.
    @Test(arguments: ["sqlite", "exec"])
    func aRunnerThatGotInWithoutTheLockRunsNothingOnAChangedState(step: String) async throws {
        let directory = try TestDirectory()
        try directory.write(Self.gatedManifest(step: step), to: "milepost.yaml")
        let arguments = ["run", "--store", "sqlite:app.db", "--to", "1.0"]
        let first = try MilepostProcess(arguments, in: directory.path)
        #expect(try await eventually { directory.read("ready-1") != nil })
        try FileManager.default.removeItem(atPath: directory.path + "/app.db.milepost-lock")
        let second = try MilepostProcess(arguments, in: directory.path)
        #expect(try await eventually { directory.read("ready-2") != nil })
        let (firstResult, secondResult) = try await Self.releaseInTurn(first, second, in: directory)
        #expect(firstResult.status == 0, "\(firstResult.stderr)")
        #expect(secondResult.status == 74, "\(secondResult.stderr)")
        #expect(secondResult.stderr.contains("checkpoint refused: the state is not the one this run read under its lock"), "\(secondResult.stderr)")
        if step == "sqlite" {
            #expect(try SQLiteProcessTests.query(directory.path + "/app.db", "SELECT count(*) FROM t") == [["1"]])
        } else {
            #expect(directory.read("ran.txt") == "1.0/insert\n")
        }
        let succeeded = try SQLiteProcessTests.query(
            directory.path + "/app.db", "SELECT count(*) FROM milepost_journal WHERE record LIKE '%\"step-succeeded\"%'")
        #expect(succeeded == [["1"]])
    }

    /// Lets the run held at `go-1` go and waits for it to end, then the one held at `go-2`.
    static func releaseInTurn(
        _ first: MilepostProcess, _ second: MilepostProcess, in directory: TestDirectory
    ) async throws -> (first: (status: Int32, stdout: String, stderr: String), second: (status: Int32, stdout: String, stderr: String)) {
        try directory.write("", to: "go-1")
        let firstResult = try await first.ended()
        try directory.write("", to: "go-2")
        return (firstResult, try await second.ended())
    }

    /// The `.milepost-lock` files `pid` has open.
    static func openLockFiles(of pid: Int32) -> [String] {
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
        return descriptors.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\($0)") }
            .filter { $0.hasSuffix(".milepost-lock") }
    }
}
