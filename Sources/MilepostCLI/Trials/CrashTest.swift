import FoundationEssentials
import Milepost
import MilepostSystem

/// `milepost test`: each upgrade path run uninterrupted (the reference, recording its commit
/// points), then once per chosen crash point by this very binary, killed with SIGKILL there
/// (`MILEPOST_CRASH_TRIAL`), and run again as an operator would run it — the same command, and
/// `resolve --retry` where a run stops at the interrupted step — until it finishes; `--verify`'s
/// output then compared with the reference's. Every trial in a sandbox of its own (`TrialSandbox`).
struct CrashTest: Sendable {
    /// The manifest, absolute, as the child runs read it; and as loaded here, for its steps.
    let manifestPath: String
    let manifest: Manifest
    let target: Version
    /// The versions the paths start from; nil for a fresh install.
    let paths: [Version?]
    let setup: String?
    let verify: String?
    let stores: TrialStores
    /// The previous release's manifest (absolute) and version, for the rollback check.
    let previous: (manifest: String, version: Version)?
    /// Flags every run of the new release gets besides the manifest, the target and the store.
    let runFlags: [String]
    let selection: TrialSelection
    let processes: TrialProcesses
    /// Opens a trial's store here, to read what the runs left in it.
    let openStore: @Sendable (String) throws -> any MilepostStore
    /// Told before each trial: the path, the trial's number among the path's and their count, the crash point.
    let onTrial: @Sendable (Version?, Int, Int, CrashPoint) -> Void

    /// What the test found.
    struct Report: Sendable {
        /// One path's crash test, with how each trial's run ended (`signal 9 (Killed)` at its point).
        struct Path: Sendable {
            let interruptions: InterruptionPath
            let terminations: [ChildProcess.Termination]
        }

        let paths: [Path]
        let selection: TrialSelection
        /// The stores the trials left on the server (`TrialStores.onServer`).
        let leftOnServer: (noun: String, names: [String])?

        /// Whether every trial of every path agrees.
        var agrees: Bool { paths.allSatisfy(\.interruptions.agrees) }
    }

    /// A path whose uninterrupted run, `--setup` or `--verify` failed: there is nothing to compare with.
    struct ReferenceFailure: Error, CustomStringConvertible {
        let from: Version?
        let what: String
        let outcome: TrialProcesses.Outcome

        var description: String {
            "the uninterrupted upgrade \(from.map { "from \($0)" } ?? "of a fresh install") could not be tested: \(what) "
                + "ended with \(outcome.summary)"
        }
    }

    /// Runs the whole test in sandboxes under a temporary directory, removed when it ends.
    func run() async throws -> Report {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("milepost-test-\(stores.token)").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        var numbers = (1...).makeIterator()
        func sandbox(from: Version?) throws -> TrialSandbox {
            try TrialSandbox(number: numbers.next()!, under: root, stores: stores, from: from)
        }
        // Only where `when: fresh-install` steps say how a fresh install ends as an upgrade does.
        let fresh = manifest.steps.contains { $0.when == .freshInstall }
            ? try await reference(in: try sandbox(from: nil)).verified : nil
        var paths: [Report.Path] = []
        for from in self.paths {
            let reference = try await reference(in: try sandbox(from: from))
            let crashes = selection.choose(from: CrashPoint.trials(in: reference.points))
            var trials: [InterruptionTrial] = []
            var terminations: [ChildProcess.Termination] = []
            for (index, crash) in crashes.enumerated() {
                onTrial(from, index + 1, crashes.count, crash)
                let (trial, termination) = try await self.trial(
                    crash, in: try sandbox(from: from), reference: reference,
                    previous: from != nil && from == previous?.version ? previous : nil)
                trials.append(trial)
                terminations.append(termination)
            }
            let freshDifference = fresh.flatMap { difference(reference.verified, $0) }
            paths.append(Report.Path(
                interruptions: InterruptionPath(
                    from: from ?? manifest.baseline, to: target, points: reference.points, trials: trials,
                    freshInstallDifference: freshDifference),
                terminations: terminations))
        }
        return Report(paths: paths, selection: selection, leftOnServer: stores.onServer(trials: numbers.next()! - 1))
    }

    /// The uninterrupted run of a path: the commit points it passed, and `--verify`'s output after it.
    private struct Reference {
        let points: [CommitPoint]
        let verified: TrialProcesses.Outcome?
    }

    private func reference(in sandbox: TrialSandbox) async throws -> Reference {
        try await prepare(sandbox)
        let record = sandbox.directory + "/commit-points"
        let ran = try await processes.milepost(
            runArguments(sandbox), in: sandbox, variables: [CrashTrialVariable.name: CrashTrialVariable.recording(to: record)])
        guard ran.exitCode == 0 else { throw ReferenceFailure(from: sandbox.from, what: "its run", outcome: ran) }
        let lines = (try? String(contentsOfFile: record, encoding: .utf8)) ?? ""
        let verified = try await verification(in: sandbox)
        if let verified, verified.exitCode != 0 { throw ReferenceFailure(from: sandbox.from, what: "--verify", outcome: verified) }
        return Reference(points: lines.split(separator: "\n").compactMap(CommitPoint.init(line:)), verified: verified)
    }

    /// One trial: the run killed at `crash`, the previous release's replica there (when `previous`),
    /// the runs after it until one finishes, and `--verify` compared with the reference's.
    private func trial(
        _ crash: CrashPoint, in sandbox: TrialSandbox, reference: Reference, previous: (manifest: String, version: Version)?
    ) async throws -> (InterruptionTrial, ChildProcess.Termination) {
        try await prepare(sandbox)
        let killed = try await processes.milepost(
            runArguments(sandbox), in: sandbox, variables: [CrashTrialVariable.name: CrashTrialVariable.killing(at: crash)])
        guard killed.termination == .signalled(SignalNumber.kill) else {
            let trial = InterruptionTrial(
                crash: crash, reached: false, recovery: nil, unfinished: nil, difference: nil, previousRelease: nil)
            return (trial, killed.termination)
        }
        var previousRelease: PreviousReleaseCheck?
        if let previous {
            let replica = try await processes.milepost(
                ["run", "--manifest", previous.manifest, "--to", previous.version.text, "--store", sandbox.store], in: sandbox)
            let (expected, contractStep) = PreviousReleaseCheck.expectation(
                at: crash, in: reference.points, contractSteps: Set(manifest.steps.filter { $0.phase == .contract }.map(\.id)))
            previousRelease = PreviousReleaseCheck(
                version: previous.version, expected: expected, contractStep: contractStep, exitCode: replica.exitCode ?? -1)
        }
        let store = try openStore(sandbox.store)
        let journalBefore = try await store.readJournal().count
        let next = try await runToTheEnd(in: sandbox, store: store)
        let recovery = TrialRecovery(of: crash.point.step, in: Array(try await store.readJournal().dropFirst(journalBefore)))
        let unfinished = next.exitCode == 0 ? nil : "the next run ended with \(next.summary)"
        let verified = unfinished == nil ? try await verification(in: sandbox) : nil
        let trial = InterruptionTrial(
            crash: crash, reached: true, recovery: recovery, unfinished: unfinished,
            difference: unfinished == nil ? difference(reference.verified, verified) : nil,
            previousRelease: previousRelease)
        return (trial, killed.termination)
    }

    /// The same run again, as an operator runs it after the interruption: when it stops at an
    /// interrupted step (exit 2), `resolve ID --retry` and run again; returns the last run.
    private func runToTheEnd(in sandbox: TrialSandbox, store: any MilepostStore) async throws -> TrialProcesses.Outcome {
        var run = try await processes.milepost(runArguments(sandbox), in: sandbox)
        var resolved: Set<String> = []
        while run.exitCode == ExitStatus.needsResolve.rawValue,
              let mark = try await store.readState()?.interruptedMarks.first, resolved.insert(mark.id).inserted {
            let resolve = try await processes.milepost(["resolve", mark.id, "--retry", "--store", sandbox.store], in: sandbox)
            guard resolve.exitCode == 0 else { return resolve }
            run = try await processes.milepost(runArguments(sandbox), in: sandbox)
        }
        return run
    }

    /// `--setup` in the sandbox, then, for a path from a version, `baseline` at it: the store and
    /// the data as a host at that version has them.
    private func prepare(_ sandbox: TrialSandbox) async throws {
        if let setup {
            let prepared = try await processes.shell(setup, in: sandbox)
            guard prepared.exitCode == 0 else { throw ReferenceFailure(from: sandbox.from, what: "--setup", outcome: prepared) }
        }
        if let from = sandbox.from {
            let baseline = try await processes.milepost(
                ["baseline", from.text, "--store", sandbox.store], in: sandbox)
            guard baseline.exitCode == 0 else { throw ReferenceFailure(from: from, what: "baseline", outcome: baseline) }
        }
    }

    private func verification(in sandbox: TrialSandbox) async throws -> TrialProcesses.Outcome? {
        guard let verify else { return nil }
        return try await processes.shell(verify, in: sandbox)
    }

    private func runArguments(_ sandbox: TrialSandbox) -> [String] {
        ["run", "--manifest", manifestPath, "--to", target.text, "--store", sandbox.store] + runFlags
    }

    /// How `other`'s `--verify` differs from `reference`'s; nil when they agree or nothing is verified.
    private func difference(_ reference: TrialProcesses.Outcome?, _ other: TrialProcesses.Outcome?) -> String? {
        guard let reference, let other else { return nil }
        guard other.exitCode == 0 else { return "verify ended with \(other.summary)" }
        return TextDifference.firstDifferingLine(reference.stdout, other.stdout).map { "verify differs at line \($0)" }
    }
}
