import Foundation
import Testing

/// What the parent leaves behind — SIGCHLD ignored, signals blocked, stdout or stderr closed, a
/// reader that goes away, descriptors without close-on-exec — never changes what a run does.
@Suite struct ReliabilityParentTests {
    /// `1/once` appends to `ran.txt` on each attempt; with `retries: 2`, a step wrongly seen as
    /// failed would run three times.
    static let once = """
        migrations:
          1:
            - name: exec
              id: once
              retries: 2
              with: {command: [sh, -c, 'echo ran >> ran.txt']}
        """

    static let succeededRun = ["run-started", "step-started", "step-succeeded", "run-finished"]

    /// `env` really sets SIG_IGN and the blocked mask before `execve`, which a shell's `trap` may not.
    @Test func aStepThatExitsZeroSucceedsOnceWhenSIGCHLDIsIgnoredAndSignalsAreBlocked() throws {
        let work = try WorkDirectory()
        try work.write(Self.once, to: "milepost.yaml")
        var milepost = work.milepost
        milepost.launcher = ["/usr/bin/env", "--ignore-signal=CHLD", "--block-signal=CHLD,TERM,INT,HUP,QUIT"]
        let result = try milepost.run("run", "--to", "1")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try work.read("ran.txt") == "ran\n")
        #expect(try ReliabilityFixture.journal(in: work).map { $0["event"] as? String } == Self.succeededRun)
    }

    /// `milepost run … 2>&1 | head -1`: head leaves after the first line, then the step writes far
    /// more than a pipe holds to both its stdout and its stderr.
    @Test func aReaderThatGoesAwayNeverKillsTheRunNorItsStep() throws {
        let work = try WorkDirectory()
        try work.write("""
            migrations:
              1:
                - {name: exec, id: chatty, with: {command: [sh, -c, 'seq 1 40000; seq 1 40000 >&2; touch finished']}}
            """, to: "milepost.yaml")
        var milepost = work.milepost
        milepost.launcher = ["/bin/sh", "-c", #"("$0" "$@" 2>&1; echo $? > status) | head -1"#]
        let result = try milepost.run("run", "--to", "1")
        #expect(result.stdout.hasPrefix("[1/1] 1/chatty"), "\(result.stdout)")
        #expect(try work.read("status") == "0\n", "milepost did not exit 0")
        #expect(work.exists("finished"), "the step did not run to its end")
        #expect(try ReliabilityFixture.journal(in: work).map { $0["event"] as? String } == Self.succeededRun)
        #expect(try work.milepost.run("run", "--to", "1").status == 0)
    }

    /// With a standard descriptor closed, every command still works and exits as it would; the
    /// closed number is held by /dev/null, so no store file opened later gets it (the step reads
    /// milepost's descriptors while the lock file is open).
    @Test(arguments: [(">&-", [1]), ("2>&-", [2]), (">&- 2>&-", [1, 2]), ("<&- >&- 2>&-", [0, 1, 2])])
    func closedStandardStreamsNeitherCrashNorGoToAStoreFile(redirection: String, closed: [Int]) throws {
        let work = try WorkDirectory()
        try work.write("""
            migrations:
              1:
                - {name: exec, id: look, with: {command: [sh, -c, 'readlink /proc/$PPID/fd/0 /proc/$PPID/fd/1 /proc/$PPID/fd/2 > fds.txt']}}
            """, to: "milepost.yaml")
        var milepost = work.milepost
        milepost.launcher = ["/bin/sh", "-c", #"exec "$0" "$@" "# + redirection]
        let run = try milepost.run("run", "--to", "1")
        #expect(run.status == 0, "\(run.stderr)")
        let descriptors = try work.read("fds.txt").split(separator: "\n")
        #expect(descriptors.count == 3, "\(descriptors)")
        #expect(!descriptors.contains { $0.contains(".milepost") }, "\(descriptors)")
        for descriptor in closed {
            #expect(descriptors.count > descriptor && descriptors[descriptor] == "/dev/null", "fd \(descriptor): \(descriptors)")
        }
        #expect(try ReliabilityFixture.journal(in: work).map { $0["event"] as? String } == Self.succeededRun)
        for command in [["history"], ["status", "--to", "1"], ["validate"], ["run", "--to", "1", "--format", "json"]] {
            #expect(try milepost.run(command).status == 0, "\(command)")
        }
        try work.write("migrations: {1: [{name: nope}]}", to: "milepost.yaml")
        #expect(try milepost.run("validate").status == 65)
    }

    /// A descriptor milepost inherited without close-on-exec (here 7, opened by the shell that
    /// starts it) does not reach the step: after a kill -9 of milepost it would hold a pipe open.
    @Test func theStepInheritsNoDescriptorMilepostInherited() throws {
        let work = try WorkDirectory()
        try work.write("""
            migrations:
              1:
                - {name: exec, id: look, with: {command: [sh, -c, 'test -e /proc/$PPID/fd/7 && echo yes > parent-has-7; test -e /proc/$$/fd/7 && echo yes > step-has-7; true']}}
            """, to: "milepost.yaml")
        var milepost = work.milepost
        milepost.launcher = ["/bin/sh", "-c", #"exec 7</dev/null; exec "$0" "$@""#]
        let run = try milepost.run("run", "--to", "1")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(work.exists("parent-has-7"), "the test did not give milepost descriptor 7")
        #expect(!work.exists("step-has-7"), "the step inherited descriptor 7")
    }

    /// libfaketime, preloaded, keeps the arguments from the Swift runtime (`CommandLine.argc` is 0):
    /// the binary trapped at start, even for `--version`, building `1..<argc`. The arguments are
    /// read from the kernel's copy instead, so the command runs as given (issue 42, item 12).
    @Test(.enabled(if: libfaketime != nil, "libfaketime is not installed (Debian: apt-get install libfaketime)"))
    func aPreloadedLibraryThatHidesTheArgumentsFromTheRuntimeChangesNothing() throws {
        let work = try WorkDirectory()
        try work.write(Self.once, to: "milepost.yaml")
        var milepost = work.milepost
        milepost.environment = ["LD_PRELOAD": try #require(Self.libfaketime), "FAKETIME": "+0"]
        let version = try milepost.run("--version")
        #expect(version.status == 0, "\(version.stderr)")
        #expect(version.stdout.hasPrefix("0."), "\(version.stdout)")
        let run = try milepost.run("run", "--to", "1", "--manifest", "milepost.yaml", "--format", "json")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try ReliabilityFixture.object(run.stdout)["to"] as? String == "1", "\(run.stdout)")
        #expect(try work.read("ran.txt") == "ran\n")
    }

    static let libfaketime = ["/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1", "/usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1"]
        .first { FileManager.default.fileExists(atPath: $0) }

    /// An `execve` with an empty argv (no program name either) runs the binary as `milepost` alone
    /// does: its help, exit 0 — never a signal.
    @Test func anEmptyArgumentVectorIsACommandLineWithoutArguments() throws {
        let work = try WorkDirectory()
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, work.path + "/out.txt", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, work.path + "/err.txt", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        var pid: pid_t = 0
        var arguments: [UnsafeMutablePointer<CChar>?] = [nil]
        #expect(posix_spawn(&pid, MilepostBinary.path, &actions, nil, &arguments, environ) == 0)
        var status: Int32 = 0
        #expect(waitpid(pid, &status, 0) == pid)
        #expect(status & 0x7f == 0, "killed by signal \(status & 0x7f): \((try? work.read("err.txt")) ?? "")")
        #expect((status >> 8) & 0xff == 0, "\((try? work.read("err.txt")) ?? "")")
        #expect(try work.read("out.txt").contains("USAGE: milepost "))
    }
}

