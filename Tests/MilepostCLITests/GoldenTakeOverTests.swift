import Foundation
import Testing

/// Pins what `status` says after a run lost its lease and another took over (Tests/Golden/takeover.txt),
/// on a real PostgreSQL through a real PgBouncer in transaction mode (`MILEPOST_TEST_PGBOUNCER_URL`).
@Suite(.enabled(
    if: pgbouncer != nil,
    "MILEPOST_TEST_PGBOUNCER_URL is not set; start PgBouncer with scripts/pgbouncer-test-server.sh start DIR PG_URL"))
struct GoldenTakeOverTests {
    /// A holder on another host is frozen (SIGSTOP) mid-step; its 2 s lease lapses; the next run takes the lock over
    /// and stops at the interrupted step; the frozen run, continued, is refused by the fence.
    @Test func takeover() throws {
        let server = try #require(pgbouncer)
        let schema = "golden_takeover_\(UUID().uuidString.prefix(8).lowercased())"
        let store = "\(server)?milepost_schema=\(schema)&milepost_lease=2s"
        let work = try WorkDirectory()
        try work.write(GoldenTests.execSteps([("1", "migrate", "[sh, -c, 'touch started; exec sleep 60']")]), to: "milepost.yaml")
        var transcript = try GoldenTranscript(
            "takeover", in: work, replacing: [(server, "postgres://<pgbouncer>"), (schema, "<schema>")])
        let holderArguments = ["run", "--to", "1", "--store", store]
        // The holder runs as on another host: its own host name (`other-host`) and its own pid
        // namespace, whose pids this host cannot see (a machine is told by its boot and pid
        // namespace, not its name). The lease is what lets the next runner in, and a step that lives
        // on there is not seen here (on the same host the next runner would wait for it:
        // ReliabilityKillTests). `unshare --fork` starts milepost as the namespace's init, whose
        // death ends the namespace, its step included.
        var otherHost = work.milepost
        otherHost.launcher = [
            "/usr/bin/unshare", "--user", "--map-root-user", "--uts", "--pid", "--fork", "--mount", "--mount-proc",
            "sh", "-c", #"hostname other-host && exec "$0" "$@""#,
        ]
        let (holder, stdout, stderr) = try otherHost.start(holderArguments)
        var frozen: Int32 = 0
        var finished = false
        defer {
            if !finished {
                if frozen > 0 {
                    kill(frozen, SIGKILL)
                    kill(frozen, SIGCONT)
                }
                _ = MilepostBinary.finish(holder, stdout, stderr, within: .seconds(60))
            }
        }
        #expect(ReliabilityFixture.eventually { work.exists("started") })
        // milepost is `unshare`'s one child (its pid as this host sees it).
        let children = try String(contentsOfFile: "/proc/\(holder.processIdentifier)/task/\(holder.processIdentifier)/children", encoding: .utf8)
        frozen = try #require(Int32(children.trimmingCharacters(in: .whitespacesAndNewlines)))
        kill(frozen, SIGSTOP)
        transcript.note("milepost run --to 1 --store STORE started in the background on other-host, frozen with SIGSTOP during its step")
        try transcript.milepost("run", "--to", "1", "--store", store, "--lock-timeout", "30s")
        try transcript.milepost("status", "--to", "1", "--store", store)
        try transcript.milepost("status", "--to", "1", "--store", store, "--format", "json")
        transcript.note("SIGCONT to the frozen run")
        kill(frozen, SIGCONT)
        transcript.record(holderArguments, MilepostBinary.finish(holder, stdout, stderr, within: .seconds(60)))
        finished = true
        try transcript.milepost("history", "--store", store)
        try transcript.milepost("resolve", "1/migrate", "--retry", "--store", store)
        try transcript.milepost("status", "--to", "1", "--store", store)
        try transcript.verify()
    }
}

private let pgbouncer = ProcessInfo.processInfo.environment["MILEPOST_TEST_PGBOUNCER_URL"]
