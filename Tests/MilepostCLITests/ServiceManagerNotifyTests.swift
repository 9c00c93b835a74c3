import Foundation
import Testing

/// `milepost run` under a service manager (`NOTIFY_SOCKET`, systemd's `sd_notify` protocol): while
/// a step runs it asks for more time (`EXTEND_TIMEOUT_USEC`) every interval and says what runs
/// (`STATUS`), and a last `STATUS` when the run ends; without `NOTIFY_SOCKET`, nothing. The test is
/// the manager: a real datagram socket. Timings are only bounded loosely (a loaded CI host).
@Suite struct ServiceManagerNotifyTests {
    /// The test interval (`MILEPOST_NOTIFY_INTERVAL`); the default is 10 s.
    static let interval: Duration = .milliseconds(250)

    /// One step that reports half of its work, then sleeps `seconds`.
    static func manifest(sleeping seconds: Double) -> String {
        """
        migrations:
          1:
            - name: exec
              id: slow
              with: {command: [sh, -c, 'echo "progress 1/2 halfway" >&$MILEPOST_CONTROL_FD; sleep \(seconds)']}
        """
    }

    /// Runs the slow step with `NOTIFY_SOCKET` at `receiver`; the datagrams and how long the run took.
    static func run(
        _ work: WorkDirectory, notifying receiver: NotifySocketReceiver, sleeping seconds: Double = 3
    ) throws -> (result: MilepostBinary.Result, datagrams: [NotifySocketReceiver.Datagram], elapsed: Duration) {
        try work.write(manifest(sleeping: seconds), to: "milepost.yaml")
        var milepost = work.milepost
        milepost.environment = ["NOTIFY_SOCKET": receiver.address, "MILEPOST_NOTIFY_INTERVAL": "250ms"]
        let started = ContinuousClock.now
        let (process, stdout, stderr) = try milepost.start(["run", "--to", "1"])
        let result = MilepostBinary.finish(process, stdout, stderr, within: .seconds(60))
        let elapsed = ContinuousClock.now - started
        // A datagram sent just before the exit is already queued; let the reader take it.
        usleep(200_000)
        return (result, receiver.stop(), elapsed)
    }

    /// What every run under a manager shows: repeated extensions, the step named with its progress,
    /// and the run's outcome last.
    static func expectNotifications(
        _ datagrams: [NotifySocketReceiver.Datagram], elapsed: Duration, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let extensions = datagrams.flatMap { $0.values("EXTEND_TIMEOUT_USEC") }
        let all = datagrams.map(\.text)
        // Sent when the step starts and at each interval of its 3 s: at least 2 of them, whatever the load.
        #expect(extensions.count >= 2, "\(all)", sourceLocation: sourceLocation)
        // Not a flood: at most one per interval of the whole run, plus the one at the step's start.
        #expect(extensions.count <= Int(elapsed / interval) + 2, "\(extensions.count) in \(elapsed)", sourceLocation: sourceLocation)
        let intervalMicroseconds = Int(interval / .microseconds(1))
        #expect(!extensions.isEmpty && extensions.allSatisfy { (Int($0) ?? 0) > intervalMicroseconds }, "\(extensions)", sourceLocation: sourceLocation)
        // Each message is newline-terminated assignments.
        #expect(datagrams.allSatisfy { $0.text.hasSuffix("\n") && $0.text.split(separator: "\n").allSatisfy { $0.contains("=") } }, sourceLocation: sourceLocation)

        let statuses = datagrams.flatMap { $0.values("STATUS") }
        #expect(statuses.contains { $0.hasPrefix("milepost: running 1/slow (step 1 of 1, attempt 1, ") }, "\(statuses)", sourceLocation: sourceLocation)
        #expect(statuses.contains { $0.contains("1/slow") && $0.contains(": 1/2 (50%)") && $0.hasSuffix(": halfway") }, "\(statuses)", sourceLocation: sourceLocation)
        #expect(statuses.last == "milepost: 0 → 1: 1 step ran", "\(statuses)", sourceLocation: sourceLocation)
        // The last message is the final status alone: no extension after the run.
        #expect(datagrams.last?.values("EXTEND_TIMEOUT_USEC") == [], sourceLocation: sourceLocation)
    }

    @Test func aRunningStepExtendsTheTimeoutAndNamesItselfAtAPath() throws {
        let work = try WorkDirectory()
        let receiver = try NotifySocketReceiver(in: work.path)
        let (result, datagrams, elapsed) = try Self.run(work, notifying: receiver)
        #expect(result.status == 0, "\(result.stderr)")
        Self.expectNotifications(datagrams, elapsed: elapsed)
        // Repeated while the step runs: the extensions span most of its 3 s.
        let extending = datagrams.filter { !$0.values("EXTEND_TIMEOUT_USEC").isEmpty }
        if let first = extending.first, let last = extending.last {
            #expect(last.at - first.at >= .seconds(1), "\(extending.map(\.at))")
        }
    }

    @Test func anAbstractSocketNameWorksToo() throws {
        let work = try WorkDirectory()
        let receiver = try NotifySocketReceiver(in: work.path, abstract: true)
        let (result, datagrams, elapsed) = try Self.run(work, notifying: receiver)
        #expect(result.status == 0, "\(result.stderr)")
        Self.expectNotifications(datagrams, elapsed: elapsed)
    }

    /// The socket is there, but `NOTIFY_SOCKET` is not set (not even inherited from the test's own
    /// environment): not one datagram.
    @Test func nothingIsSentWithoutNotifySocket() throws {
        let work = try WorkDirectory()
        let receiver = try NotifySocketReceiver(in: work.path)
        try work.write(Self.manifest(sleeping: 1), to: "milepost.yaml")
        var milepost = work.milepost
        milepost.launcher = ["/usr/bin/env", "-u", "NOTIFY_SOCKET"]
        milepost.environment = ["MILEPOST_NOTIFY_INTERVAL": "100ms"]
        let (process, stdout, stderr) = try milepost.start(["run", "--to", "1"])
        let result = MilepostBinary.finish(process, stdout, stderr, within: .seconds(60))
        #expect(result.status == 0, "\(result.stderr)")
        usleep(300_000)
        #expect(receiver.stop().map(\.text) == [])
    }

    /// Nobody listens at `NOTIFY_SOCKET`: the run succeeds, and says so once, at debug level.
    @Test func aDeadSocketNeverFailsTheRun() throws {
        let work = try WorkDirectory()
        try work.write(Self.manifest(sleeping: 0.6), to: "milepost.yaml")
        var milepost = work.milepost
        milepost.environment = ["NOTIFY_SOCKET": work.path + "/nobody.sock", "MILEPOST_NOTIFY_INTERVAL": "100ms"]
        let result = try milepost.run("run", "--to", "1", "--log-level", "debug")
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n").filter { $0.contains("cannot notify the service manager") }
        #expect(lines.count == 1, "\(result.stderr)")
        #expect(lines.first?.contains("sendto: ") == true, "\(lines)")
    }

    /// An interval the extension cannot hold (`100000000d`: three of them in microseconds overflow
    /// 64 bits) trapped at the first step, after its in-progress mark, leaving it INTERRUPTED. It is
    /// refused before the run starts, as a usage error, and so is an interval too short or no
    /// duration at all (issue 42, item 11).
    @Test(arguments: [
        ("100000000d", "give at most 720000h"), ("1ms", "give at least 10ms"), ("soon", "expected numbers with units"),
    ])
    func anIntervalItCannotHoldIsRefusedBeforeTheRun(interval: String, reason: String) throws {
        let work = try WorkDirectory()
        let receiver = try NotifySocketReceiver(in: work.path)
        try work.write(Self.manifest(sleeping: 0.1), to: "milepost.yaml")
        var milepost = work.milepost
        milepost.environment = ["NOTIFY_SOCKET": receiver.address, "MILEPOST_NOTIFY_INTERVAL": interval]
        let result = try milepost.run("run", "--to", "1")
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains("MILEPOST_NOTIFY_INTERVAL=\(interval): \(reason)"), "\(result.stderr)")
        let status = try work.milepost.run("status")
        #expect(status.stdout.hasPrefix("NEW a new store: nothing is stored in .milepost yet"), "\(status.stdout)")
        #expect(receiver.stop().map(\.text) == [])
    }
}

