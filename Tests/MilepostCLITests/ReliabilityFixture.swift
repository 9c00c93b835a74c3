import Foundation
import MilepostTestSupport
import Testing

/// What the reliability tests share: bounded waits (a guard against hangs, never a timing
/// assertion), process liveness, and reading JSON the binary printed or stored.
enum ReliabilityFixture {
    /// The host name Milepost records (`gethostname`).
    static let host: String = {
        var buffer = [CChar](repeating: 0, count: 256)
        gethostname(&buffer, buffer.count - 1)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }()

    /// A manifest of `exec` steps named `THRESHOLD/ID`, in order; each appends its id to `ran.txt`,
    /// then runs its shell text in `then`, if any.
    static func recordingManifest(_ ids: [String], then: [String: String] = [:]) -> String {
        var lines = ["migrations:"]
        var threshold: Substring?
        for id in ids {
            let parts = id.split(separator: "/", maxSplits: 1)
            if parts[0] != threshold {
                threshold = parts[0]
                lines.append("  \(parts[0]):")
            }
            let command = #"echo "$MILEPOST_STEP" >> ran.txt"# + (then[id].map { "; " + $0 } ?? "")
            lines.append("    - {name: exec, id: \(parts[1]), with: {command: [sh, -c, '\(command)']}}")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Polls `condition` every 10 ms for up to `limit`; false if it never held.
    static func eventually(within limit: Duration = .seconds(60), _ condition: () -> Bool) -> Bool {
        let deadline = ContinuousClock.now + limit
        while !condition() {
            guard ContinuousClock.now < deadline else { return false }
            usleep(10_000)
        }
        return true
    }

    /// Runs `milepost run ARGUMENTS` in `work`, sends it SIGTERM once its journal has a record of
    /// `event` (as `"event":"step-failed"` in the file), and returns how it ended.
    static func terminate(_ work: WorkDirectory, run arguments: [String], after event: String) throws -> MilepostBinary.Result {
        let (process, stdout, stderr) = try work.milepost.start(["run"] + arguments)
        #expect(eventually { (try? work.read(".milepost/journal.jsonl"))?.contains(#""event":"\#(event)""#) == true })
        kill(process.processIdentifier, SIGTERM)
        return MilepostBinary.finish(process, stdout, stderr, within: .seconds(60))
    }

    /// True when `pid` is gone or a zombie (dead, waiting to be reaped).
    static func isDead(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return true }
        // The state is the first field after the parenthesised command name.
        guard let close = stat.lastIndex(of: ")") else { return true }
        return stat[close...].dropFirst(2).first == "Z"
    }

    /// True for `2026-01-02T03:04:05.678Z`, the form of every time Milepost writes.
    static func isTimestamp(_ text: String) -> Bool {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return text.hasSuffix("Z") && formatter.date(from: text) != nil
    }

    /// The pid written by a step into `name`, as `echo $$ > name` does.
    static func pid(in work: WorkDirectory, _ name: String) throws -> Int32 {
        try #require(Int32(try work.read(name).trimmingCharacters(in: .whitespacesAndNewlines)))
    }

    /// One JSON object (what `--format json` prints, or a state or lock file).
    static func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// Every line of `journal.jsonl`, which must be valid JSONL: each line one JSON object, the
    /// file ending in a newline.
    static func journal(in work: WorkDirectory, store: String = ".milepost") throws -> [[String: Any]] {
        let text = try work.read(store + "/journal.jsonl")
        #expect(text.isEmpty || text.hasSuffix("\n"), "the journal ends mid-line")
        return try text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map { try object(String($0)) }
    }
}

extension MilepostBinary {
    /// `finish`, with a watchdog that kills the process if it still runs after `limit` and then
    /// records an issue, so a hang fails the test instead of stalling the suite. The pipes are
    /// drained meanwhile, so a chatty process never blocks on them.
    static func finish(
        _ process: Process, _ stdout: ExecClosingPipe, _ stderr: ExecClosingPipe, within limit: Duration,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> Result {
        nonisolated(unsafe) var fired = false
        let watchdog = Thread {
            if !ReliabilityFixture.eventually(within: limit, { !process.isRunning }) {
                fired = true
                kill(process.processIdentifier, SIGKILL)
            }
        }
        watchdog.start()
        let result = finish(process, stdout, stderr)
        while !watchdog.isFinished { usleep(1_000) }
        if fired { Issue.record("milepost still running after \(limit); killed", sourceLocation: sourceLocation) }
        return result
    }
}
