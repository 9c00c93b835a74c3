import Foundation
import Testing

/// Every option of `run` has a `MILEPOST_*` variable for unattended use (issue 28): each variable
/// `run --help` names is honoured by a real run, and an empty or bad value is a usage error (64)
/// naming it. The variables come from the help, so an option added without a case here fails.
@Suite struct EnvironmentSettingTests {
    /// Two exec steps, each appending its threshold to `ran`.
    static let manifest = """
        migrations:
          1: [{name: exec, with: {command: [sh, -c, 'echo 1 >> ran']}}]
          2: [{name: exec, with: {command: [sh, -c, 'echo 2 >> ran']}}]
        """

    /// What each variable does, checked by running the binary with it set.
    static let honoured: [String: @Sendable (WorkDirectory) throws -> Void] = [
        "MILEPOST_MANIFEST": { work in
            try work.write(manifest, to: "sub/app.yaml")
            let result = try work.milepost(["MILEPOST_MANIFEST": "sub/app.yaml"]).run("run", "--to", "1")
            #expect(result.status == 0, "\(result.stderr)")
            #expect(work.exists("sub/.milepost"), "the store beside the manifest the variable names")
        },
        "MILEPOST_MAX_MANIFEST_SIZE": { work in
            let result = try work.milepost(["MILEPOST_MAX_MANIFEST_SIZE": "10"]).run("run", "--to", "1")
            #expect(result.status == 65, "\(result.stderr)")
            #expect(!work.exists("ran"))
        },
        "MILEPOST_ENV_FILE": { work in
            try work.write(
                "variables: [MARKER]\nmigrations:\n  1: [{name: exec, with: {command: [touch, '${MARKER}']}}]\n", to: "milepost.yaml")
            try work.write("MARKER=from-env-file\n", to: "vars.env")
            let result = try work.milepost(["MILEPOST_ENV_FILE": "vars.env"]).run("run", "--to", "1")
            #expect(result.status == 0, "\(result.stderr)")
            #expect(work.exists("from-env-file"))
        },
        "MILEPOST_STORE": { work in
            let result = try work.milepost(["MILEPOST_STORE": "elsewhere"]).run("run", "--to", "1")
            #expect(result.status == 0, "\(result.stderr)")
            #expect(work.exists("elsewhere/state.json") && !work.exists(".milepost"))
        },
        "MILEPOST_TO": { work in
            let result = try work.milepost(["MILEPOST_TO": "1"]).run("run")
            #expect(result.status == 0, "\(result.stderr)")
            #expect(try work.read("ran") == "1\n")
        },
        "MILEPOST_LABELS": { work in
            try work.write("""
                migrations:
                  1:
                    - {name: exec, id: eu, labels: eu, with: {command: [touch, eu]}}
                    - {name: exec, id: us, labels: us, with: {command: [touch, us]}}
                """, to: "milepost.yaml")
            let result = try work.milepost(["MILEPOST_LABELS": "eu"]).run("run", "--to", "1")
            #expect(result.status == 0, "\(result.stderr)")
            #expect(work.exists("eu") && !work.exists("us"))
        },
        "MILEPOST_PHASE": { work in
            try work.write("""
                migrations:
                  1: [{name: exec, with: {command: [sh, -c, 'echo 1 >> ran']}}]
                  2: [{name: exec, phase: contract, with: {command: [sh, -c, 'echo 2 >> ran']}}]
                """, to: "milepost.yaml")
            #expect(try work.milepost.run("run", "--to", "1").status == 0)
            #expect(try work.milepost.run("run", "--to", "2").status == 0)
            #expect(try work.read("ran") == "1\n", "a plain run leaves the contract step waiting")
            let result = try work.milepost(["MILEPOST_PHASE": "contract"]).run("run", "--to", "2")
            #expect(result.status == 0, "\(result.stderr)")
            #expect(try work.read("ran") == "1\n2\n")
        },
        "MILEPOST_HOST_STORE": { work in
            try work.write(
                "migrations:\n  1: [{name: exec, scope: host, with: {command: [sh, -c, 'echo 1 >> ran']}}]\n", to: "milepost.yaml")
            #expect(try work.milepost.run("run", "--to", "1").status == 64)
            let result = try work.milepost(["MILEPOST_HOST_STORE": "host"]).run("run", "--to", "1")
            #expect(result.status == 0, "\(result.stderr)")
            #expect(work.exists("host/state.json"))
        },
        "MILEPOST_DEADLINE": { work in
            try work.write("migrations:\n  1: [{name: exec, expected: 10m, with: {command: [sh, -c, 'echo 1 >> ran']}}]\n", to: "milepost.yaml")
            let result = try work.milepost(["MILEPOST_DEADLINE": "1s"]).run("run", "--to", "1")
            #expect(result.status == 6, "\(result.stderr)")
            #expect(!work.exists("ran"))
        },
        "MILEPOST_HISTORY": { work in
            #expect(try work.milepost.run("run", "--to", "1", "--store", "staging").status == 0)
            // Known from the staging store's journal, the step does not fit 1 ms; unknown, it would start.
            let result = try work.milepost(["MILEPOST_HISTORY": "staging"]).run("run", "--to", "1", "--deadline", "1ms")
            #expect(result.status == 6, "\(result.stderr)")
            #expect(try work.read("ran") == "1\n", "only the staging run ran it")
        },
        "MILEPOST_PLAN": { work in
            #expect(try work.milepost.run("plan", "--to", "2", "--out", "reviewed.json").status == 0)
            let result = try work.milepost(["MILEPOST_PLAN": "reviewed.json"]).run("run")
            #expect(result.status == 0, "\(result.stderr)")
            #expect(try work.read("ran") == "1\n2\n")
        },
        "MILEPOST_DRY_RUN": { work in
            let result = try work.milepost(["MILEPOST_DRY_RUN": "1"]).run("run", "--to", "1")
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr.contains("dry run"), "\(result.stderr)")
            #expect(!work.exists("ran") && !work.exists(".milepost"), "a dry run writes nothing")
            let off = try work.milepost(["MILEPOST_DRY_RUN": "no"]).run("run", "--to", "1")
            #expect(off.status == 0 && work.exists("ran"), "\(off.stderr)")
        },
        "MILEPOST_LOCK_TIMEOUT": { work in
            try ReliabilityLockTests.withHeldLock(in: work) { _ in
                let start = ContinuousClock.now
                let result = try work.milepost(["MILEPOST_LOCK_TIMEOUT": "300ms"]).run("run", "--to", "1")
                #expect(result.status == 75, "\(result.stderr)")
                #expect(result.stderr.contains("within 300ms"), "\(result.stderr)")
                #expect(ContinuousClock.now - start < .seconds(30), "the default is 60 s")
            }
        },
        "MILEPOST_TERMINATION_GRACE": { work in
            // A step that ignores SIGTERM is killed once the grace is over: 300 ms, not 25 s.
            try work.write(
                "migrations:\n  1: [{name: exec, with: {command: [sh, -c, 'trap \"\" TERM; touch started; sleep 60']}}]\n",
                to: "milepost.yaml")
            let (runner, stdout, stderr) = try work.milepost(["MILEPOST_TERMINATION_GRACE": "300ms"]).start(["run", "--to", "1"])
            #expect(ReliabilityFixture.eventually { work.exists("started") })
            let start = ContinuousClock.now
            kill(runner.processIdentifier, SIGTERM)
            let result = MilepostBinary.finish(runner, stdout, stderr, within: .seconds(30))
            #expect(result.status == 143, "\(result.stderr)")
            #expect(ContinuousClock.now - start < .seconds(15), "the default grace is 25 s")
        },
        "MILEPOST_PROGRESS_INTERVAL": { work in
            // Three reports 300 ms apart: each reaches the journal with a 1 ms interval; with the
            // default 5 s only the first does.
            let report = #"for i in 1 2 3; do echo "progress $i/3" >&$MILEPOST_CONTROL_FD; sleep 0.3; done"#
            try work.write("migrations:\n  1: [{name: exec, with: {command: [sh, -c, '\(report)']}}]\n", to: "milepost.yaml")
            let result = try work.milepost(["MILEPOST_PROGRESS_INTERVAL": "1ms"]).run("run", "--to", "1")
            #expect(result.status == 0, "\(result.stderr)")
            let progress = try ReliabilityFixture.journal(in: work).filter { $0["event"] as? String == "step-progress" }
            #expect(progress.count == 3, "\(progress)")
        },
        "MILEPOST_ALLOW_DOWNGRADE": { work in
            #expect(try work.milepost.run("run", "--to", "2").status == 0)
            #expect(try work.milepost.run("run", "--to", "1").status == 3)
            let result = try work.milepost(["MILEPOST_ALLOW_DOWNGRADE": "true"]).run("run", "--to", "1")
            #expect(result.status == 0, "\(result.stderr)")
        },
        "MILEPOST_EXISTING_STORE": { work in
            let refused = try work.milepost(["MILEPOST_EXISTING_STORE": "yes"]).run("run", "--to", "1")
            #expect(refused.status == 69, "\(refused.stderr)")
            #expect(!work.exists(".milepost") && !work.exists("ran"))
            let result = try work.milepost(["MILEPOST_EXISTING_STORE": "0"]).run("run", "--to", "1")
            #expect(result.status == 0, "\(result.stderr)")
        },
        "MILEPOST_FORMAT": { work in
            for _ in 1...2 {  // the full path, then the pre-start fast path on the up-to-date store
                let result = try work.milepost(["MILEPOST_FORMAT": "json"]).run("run", "--to", "1")
                #expect(result.status == 0, "\(result.stderr)")
                #expect(try ReliabilityFixture.object(result.stdout)["command"] as? String == "run", "\(result.stdout)")
            }
        },
        "MILEPOST_METRICS_FILE": { work in
            let result = try work.milepost(["MILEPOST_METRICS_FILE": "run.prom"]).run("run", "--to", "1")
            #expect(result.status == 0, "\(result.stderr)")
            #expect(try work.read("run.prom").contains("milepost_"))
        },
        "MILEPOST_LOG_LEVEL": { work in
            let result = try work.milepost(["MILEPOST_LOG_LEVEL": "debug"]).run("run", "--to", "1")
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr.contains(" debug milepost: "), "\(result.stderr)")
        },
        "MILEPOST_LOG_FORMAT": { work in
            let result = try work.milepost(["MILEPOST_LOG_FORMAT": "json", "MILEPOST_LOG_LEVEL": "info"]).run("run", "--to", "1")
            #expect(result.status == 0, "\(result.stderr)")
            let lines = result.stderr.split(separator: "\n")
            #expect(!lines.isEmpty && lines.allSatisfy { $0.hasPrefix("{") }, "\(result.stderr)")
        },
    ]

    /// A value each variable refuses; nil for a variable any non-empty value is valid for (a path).
    static let refused: [String: String?] = [
        "MILEPOST_MANIFEST": nil, "MILEPOST_ENV_FILE": nil, "MILEPOST_STORE": nil, "MILEPOST_METRICS_FILE": nil,
        "MILEPOST_MAX_MANIFEST_SIZE": "4MB", "MILEPOST_TO": "banana", "MILEPOST_LABELS": "eu and",
        "MILEPOST_DRY_RUN": "maybe", "MILEPOST_LOCK_TIMEOUT": "30", "MILEPOST_TERMINATION_GRACE": "soon",
        "MILEPOST_PROGRESS_INTERVAL": "5", "MILEPOST_ALLOW_DOWNGRADE": "2", "MILEPOST_EXISTING_STORE": "sure", "MILEPOST_FORMAT": "xml",
        "MILEPOST_LOG_LEVEL": "loud", "MILEPOST_LOG_FORMAT": "yaml", "MILEPOST_PHASE": "later", "MILEPOST_HOST_STORE": nil,
        "MILEPOST_DEADLINE": "90", "MILEPOST_HISTORY": nil, "MILEPOST_PLAN": nil,
    ]

    /// The variables `run --help` names.
    static func variablesInHelp() throws -> Set<String> {
        let work = try WorkDirectory()
        let help = try work.milepost.run("run", "--help")
        #expect(help.status == 0, "\(help.stderr)")
        let pattern = try NSRegularExpression(pattern: "MILEPOST_[A-Z_]+")
        let text = help.stdout as NSString
        return Set(pattern.matches(in: help.stdout, range: NSRange(location: 0, length: text.length)).map { text.substring(with: $0.range) })
    }

    @Test func everyVariableInRunsHelpHasACase() throws {
        let named = try Self.variablesInHelp()
        #expect(named.count >= 15, "\(named)")
        #expect(named.subtracting(Self.honoured.keys).isEmpty, "no case shows these are honoured: \(named.subtracting(Self.honoured.keys).sorted())")
        #expect(named.subtracting(Self.refused.keys).isEmpty, "no bad value for: \(named.subtracting(Self.refused.keys).sorted())")
        #expect(Set(Self.honoured.keys).subtracting(named).isEmpty, "cases for variables run --help does not name")
    }

    @Test(arguments: honoured.keys.sorted())
    func theVariableIsHonoured(variable: String) throws {
        let work = try WorkDirectory()
        try work.write(Self.manifest, to: "milepost.yaml")
        let check = try #require(Self.honoured[variable])
        try check(work)
    }

    /// Empty, and bad where a value can be, is exit 64 naming the variable: on a fresh store (the
    /// parser) and on an up-to-date one (the pre-start fast path must not answer "up to date").
    @Test(arguments: refused.keys.sorted())
    func anEmptyOrBadValueIsAUsageErrorNamingTheVariable(variable: String) throws {
        let work = try WorkDirectory()
        try work.write(Self.manifest, to: "milepost.yaml")
        let values = [""] + [Self.refused[variable] ?? nil].compactMap { $0 }
        // --to would win over MILEPOST_TO.
        let arguments = variable == "MILEPOST_TO" ? ["run"] : ["run", "--to", "1"]
        for upToDate in [false, true] {
            if upToDate { #expect(try work.milepost.run("run", "--to", "1").status == 0) }
            for value in values {
                let result = try work.milepost([variable: value]).run(arguments)
                #expect(result.status == 64, "\(variable)=\(value): \(result.stderr)")
                #expect(result.stderr.contains(variable), "\(variable)=\(value): \(result.stderr)")
            }
        }
        #expect(try work.read("ran") == "1\n", "only the run that made the store up to date ran a step")
    }

    /// The flag wins over the variable.
    @Test func theFlagWins() throws {
        let work = try WorkDirectory()
        try work.write(Self.manifest, to: "milepost.yaml")
        let result = try work.milepost(["MILEPOST_FORMAT": "json", "MILEPOST_TO": "2"]).run("run", "--to", "1", "--format", "text")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.isEmpty && result.stderr.contains("1/exec"), "\(result.stdout)")
        #expect(try work.read("ran") == "1\n")
    }
}

extension WorkDirectory {
    /// The binary run here with `environment` added.
    func milepost(_ environment: [String: String]) -> MilepostBinary {
        var binary = milepost
        binary.environment = environment
        return binary
    }
}
