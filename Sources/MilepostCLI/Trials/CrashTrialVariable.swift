import ArgumentParser
import Milepost
import MilepostSystem

/// `MILEPOST_CRASH_TRIAL`: what a child `run` of `milepost test` does at its commit points, set for
/// those runs only. `record PATH` appends each point the run passes to PATH, a line each
/// (`CommitPoint.line`): the reference run's list. `kill before cursor 3 2.7/backfill`
/// (`CrashPoint.line`) kills the run with SIGKILL when it gets there.
enum CrashTrialVariable {
    static let name = "MILEPOST_CRASH_TRIAL"

    /// The value that records the points to `path`.
    static func recording(to path: String) -> String { "record " + path }

    /// The value that kills the run at `crash`.
    static func killing(at crash: CrashPoint) -> String { "kill " + crash.line }

    /// Takes the variable out of the environment once the run has its trap: a `milepost` that an
    /// `exec` step of the run starts would otherwise stop at its own commit points too (or add them
    /// to the reference run's list).
    static func withholdFromSteps() {
        _ = ProcessEnvironment.take(name)
    }

    /// The trap the variable asks for; nil when it is not set.
    /// - throws: `ValidationError` for a value that is neither form.
    static func trap() throws -> CommitTrap? {
        guard let value = ProcessEnvironment.value(name) else { return nil }
        if value.hasPrefix("record "), case let path = String(value.dropFirst("record ".count)), !path.isEmpty {
            return CommitTrap { crash in
                guard crash.moment == .before else { return }
                let file = try FileCalls.open(path, .writeOnly, options: [.append, .create], permissions: [.ownerReadWrite])
                defer { FileCalls.close(file) }
                try FileCalls.write(file, Array((crash.point.line + "\n").utf8), path)
            }
        }
        if value.hasPrefix("kill "), let target = CrashPoint(line: value.dropFirst("kill ".count)) {
            return CommitTrap { crash in
                if crash == target { FailPoint.killProcess() }
            }
        }
        throw ValidationError("\(name) is '\(value)': give record PATH or kill MOMENT KIND NUMBER [STEP]")
    }
}
