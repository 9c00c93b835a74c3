import Foundation
import Testing

/// Values of secret variables (`secrets:` or `${secret:NAME}`) never reach the store, the journal,
/// logs or any output: each place that would show one shows `***`.
@Suite struct ManifestSecretTests {
    static let password = "hunter2-Zq9"

    /// Every file under `directory`, read whole.
    static func contents(under directory: String) throws -> [(path: String, text: String)] {
        let enumerator = try #require(FileManager.default.enumerator(atPath: directory))
        return try enumerator.compactMap { $0 as? String }.compactMap { name in
            let path = directory + "/" + name
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else { return nil }
            return (name, String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self))
        }
    }

    @Test func aFailingStepThatEchoesTheSecretNeverShowsIt() throws {
        let work = try WorkDirectory()
        try work.write("""
            secrets: [DB_PASSWORD]
            migrations:
              1.0:
                - name: exec
                  id: connect
                  with:
                    command: [sh, -c, 'echo "connecting with $0"; printf "password %s" "$0" >&2; exit 3', '${DB_PASSWORD}']
            """, to: "milepost.yaml")
        try work.write("DB_PASSWORD=\(Self.password)\n", to: "prod.env")
        let run = try work.milepost.run("run", "--to", "1.0", "--env-file", "prod.env", "--format", "json", "--log-level", "debug")
        #expect(run.status == 1, "\(run.stderr)")
        #expect(!run.stdout.contains(Self.password), "\(run.stdout)")
        #expect(!run.stderr.contains(Self.password), "\(run.stderr)")
        #expect(run.stdout.contains("password ***"), "\(run.stdout)")   // the error in the JSON report
        #expect(run.stderr.contains("connecting with ***"), "\(run.stderr)")  // the child's output, copied
        #expect(run.stderr.contains("exit 3\", \"***\"] in ."), "\(run.stderr)")  // the debug log of the command

        let files = try Self.contents(under: work.path + "/.milepost")
        #expect(files.map(\.path).contains("journal.jsonl"))
        #expect(files.map(\.path).contains("state.json"))
        for file in files { #expect(!file.text.contains(Self.password), "\(file.path): \(file.text)") }
        #expect(files.first { $0.path == "journal.jsonl" }?.text.contains("password ***") == true)

        let github = try work.milepost.run("run", "--to", "1.0", "--env-file", "prod.env", "--format", "github")
        #expect(github.status == 1, "\(github.stderr)")
        #expect(github.stdout.contains("password ***"), "\(github.stdout)")  // the workflow annotation of the failure
        #expect(!(github.stdout + github.stderr).contains(Self.password), "\(github.stdout) \(github.stderr)")
        for command in [["status", "--format", "json"], ["status", "--format", "github"], ["history", "--format", "json"], ["status"], ["history"]] {
            let shown = try work.milepost.run(command)
            #expect(!(shown.stdout + shown.stderr).contains(Self.password), "\(command): \(shown.stdout) \(shown.stderr)")
        }
    }

    /// `${secret:NAME}` marks a variable secret where it is used; a value cut across two writes of
    /// the child is still masked.
    @Test func anInlineSecretIsMaskedEvenWhenWrittenInPieces() throws {
        let work = try WorkDirectory()
        try work.write("""
            migrations:
              1.0:
                - name: exec
                  id: token
                  with:
                    command: [sh, -c, 'printf "%s" "$${TOKEN%??????}"; sleep 0.3; printf "%s\\n" "$${TOKEN#?????}"; echo "token $TOKEN" >&2; exit 1']
                    env: {TOKEN: '${secret:API_TOKEN}'}
            """, to: "milepost.yaml")
        let run = try MilepostBinary(directory: work.path, environment: ["API_TOKEN": Self.password]).run("run", "--to", "1.0")
        #expect(run.status == 1, "\(run.stderr)")
        #expect(!run.stderr.contains(Self.password), "\(run.stderr)")
        #expect(!run.stderr.contains("hunte"), "\(run.stderr)")
        #expect(run.stderr.contains("***\n"), "\(run.stderr)")
        #expect(run.stderr.contains("token ***"), "\(run.stderr)")
        for file in try Self.contents(under: work.path + "/.milepost") {
            #expect(!file.text.contains(Self.password), "\(file.path)")
        }
    }

    @Test func secretsMustBeAListOfNames() throws {
        let work = try WorkDirectory()
        try work.write("secrets: [DB-PASSWORD]\nsecret: []\nmigrations:\n  1.0: [{name: exec, with: {command: [\"true\"]}}]\n", to: "milepost.yaml")
        let result = try work.milepost.run("validate")
        #expect(result.status == 65)
        #expect(result.stderr.contains("milepost.yaml:1:11: error: invalid variable name 'DB-PASSWORD'"), "\(result.stderr)")
        #expect(result.stderr.contains("milepost.yaml:2:1: error: unknown key 'secret' in the manifest"), "\(result.stderr)")
        #expect(result.stderr.contains("note: did you mean 'secrets'?"), "\(result.stderr)")
    }

    /// A one-character secret would mask that character everywhere (`e***ited with status 3`) and
    /// hide nothing: a secret shorter than 6 characters is refused at its declaration or use, by
    /// `run` before any step and by `validate` (issue 25, item 12).
    @Test(arguments: ["secrets: [DB_PASSWORD]\n", ""])
    func aSecretTooShortToMaskIsRefused(declaration: String) throws {
        let work = try WorkDirectory()
        let use = declaration.isEmpty ? "${secret:DB_PASSWORD}" : "${DB_PASSWORD}"
        try work.write(declaration + """
            migrations:
              1.0:
                - {name: exec, id: connect, with: {command: [sh, -c, 'touch ran; echo "$0" >&2; exit 3', '\(use)']}}
            """, to: "milepost.yaml")
        for value in ["x", "abcde"] {
            try work.write("DB_PASSWORD=\(value)\n", to: "prod.env")
            let run = try work.milepost.run("run", "--to", "1.0", "--env-file", "prod.env")
            #expect(run.status == 65, "\(run.stderr)")
            #expect(run.stderr.contains("the value of the secret variable 'DB_PASSWORD' is too short to mask (\(value.count) of at least 6 characters)"), "\(run.stderr)")
            #expect(!run.stderr.contains("***"), "\(run.stderr)")
            #expect(!work.exists("ran"))
            let validate = try work.milepost.run("validate", "--env-file", "prod.env")
            #expect(validate.status == 65 && validate.stderr.contains("too short to mask"), "\(validate.stderr)")
        }
        try work.write("DB_PASSWORD=abcdef\n", to: "prod.env")
        let run = try work.milepost.run("run", "--to", "1.0", "--env-file", "prod.env")
        #expect(run.status == 1 && run.stderr.contains("exited with status 3"), "\(run.stderr)")
        #expect(run.stderr.contains("***") && !run.stderr.contains("abcdef"), "\(run.stderr)")
    }

    /// A step's progress messages and its control lines go everywhere progress goes: the state while
    /// it runs (`status` text and JSON), the journal (append-only), `history`, the service manager's
    /// `STATUS=` datagrams and the warning for a line of unknown kind. Each gets `***`, never the
    /// value, written in one piece or cut at the warning's 80 characters (issue 42, item 6).
    @Test func progressMessagesAndControlLinesNeverShowTheSecret() throws {
        let work = try WorkDirectory()
        let padding = String(repeating: "x", count: 75)
        try work.write("""
            secrets: [DB_PASSWORD]
            migrations:
              1.0:
                - name: exec
                  id: copy
                  with:
                    command: [sh, -c, 'echo "progress 1/10 copying via postgres://app:$DB_PASSWORD@db/shop" >&3; echo "frobnicate $DB_PASSWORD" >&3; echo "\(padding)$DB_PASSWORD" >&3; touch reported; while [ -e hold ]; do sleep 0.02; done']
                    env: {DB_PASSWORD: '${DB_PASSWORD}'}
            """, to: "milepost.yaml")
        try work.write("", to: "hold")
        let receiver = try NotifySocketReceiver(in: work.path)
        var milepost = work.milepost
        milepost.environment = ["DB_PASSWORD": Self.password, "NOTIFY_SOCKET": receiver.address, "MILEPOST_NOTIFY_INTERVAL": "100ms"]
        let (process, stdout, stderr) = try milepost.start(["run", "--to", "1.0", "--progress-interval", "0ms"])
        #expect(ReliabilityFixture.eventually {
            work.exists("reported") && (try? work.milepost.run("status").stdout)?.contains("copying via") == true
        })
        let status = try work.milepost.run("status")
        #expect(status.stdout.contains("1/10 (10%): copying via postgres://app:***@db/shop"), "\(status.stdout)")
        let statusJSON = try work.milepost.run("status", "--format", "json")
        #expect(statusJSON.stdout.contains("copying via postgres://app:***@db/shop"), "\(statusJSON.stdout)")
        let stateWhileRunning = try work.read(".milepost/state.json")
        for shown in [status.stdout, statusJSON.stdout, stateWhileRunning] { #expect(!shown.contains(Self.password), "\(shown)") }

        try FileManager.default.removeItem(atPath: work.path + "/hold")
        let run = MilepostBinary.finish(process, stdout, stderr, within: .seconds(60))
        usleep(200_000)
        let statuses = receiver.stop().flatMap { $0.values("STATUS") }
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("ignored a control line: frobnicate ***"), "\(run.stderr)")
        #expect(statuses.contains { $0.hasSuffix(": copying via postgres://app:***@db/shop") }, "\(statuses)")
        let history = try work.milepost.run("history")
        #expect(history.stdout.contains("1/10: copying via postgres://app:***@db/shop"), "\(history.stdout)")
        let historyJSON = try work.milepost.run("history", "--format", "json")
        let journal = try work.read(".milepost/journal.jsonl")
        #expect(journal.contains("copying via postgres://app:***@db/shop"), "\(journal)")
        for shown in [run.stdout, run.stderr, history.stdout, historyJSON.stdout, journal, try work.read(".milepost/state.json")] + statuses {
            #expect(!shown.contains(Self.password) && !shown.contains(String(Self.password.prefix(5))), "\(shown)")
        }
    }
}
