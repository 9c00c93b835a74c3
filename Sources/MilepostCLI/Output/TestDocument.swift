import Milepost
import MilepostSystem

/// `milepost test --format json`: each path with its commit points and trials, every finding, and
/// the seed that reproduces the sample (docs/json.md).
struct TestDocument: Encodable {
    struct Point: Encodable {
        var kind: String
        var step: String?
        var number: Int

        init(_ point: CommitPoint) {
            kind = point.kind.rawValue
            step = point.step
            number = point.number
        }
    }

    struct Trial: Encodable {
        var moment: String
        var point: Point
        var reached: Bool
        /// The signal that ended the run stopped at the point (9: SIGKILL); nil when it exited.
        var killedBySignal: Int32?
        /// How it exited when it did not reach the point.
        var exitCode: Int32?
        var nextRun: String?
        var resolved: Bool?
        var resumedAtCursor: String?
        var unfinished: String?
        var difference: String?
        var previousRelease: PreviousRelease?
        var agrees: Bool

        init(_ trial: InterruptionTrial, termination: ChildProcess.Termination) {
            moment = trial.crash.moment.rawValue
            point = Point(trial.crash.point)
            reached = trial.reached
            switch termination {
            case .signalled(let signal): killedBySignal = signal
            case .exited(let code): exitCode = code
            }
            nextRun = trial.recovery?.description
            resolved = trial.recovery?.resolved
            resumedAtCursor = trial.recovery?.cursor
            unfinished = trial.unfinished
            difference = trial.difference
            previousRelease = trial.previousRelease.map(PreviousRelease.init)
            agrees = trial.agrees
        }
    }

    struct PreviousRelease: Encodable {
        var version: String
        var expected: String
        var contractStep: String?
        var exitCode: Int32
        var agrees: Bool

        init(_ check: PreviousReleaseCheck) {
            version = check.version.text
            expected = check.expected.rawValue
            contractStep = check.contractStep
            exitCode = check.exitCode
            agrees = check.agrees
        }
    }

    struct Finding: Encodable {
        var severity: String
        var step: String?
        var message: String

        init(_ finding: TrialFinding) {
            severity = finding.isFailure ? "error" : "note"
            step = finding.step
            message = finding.description
        }
    }

    struct Path: Encodable {
        var from: String
        var to: String
        var commitPoints: [Point]
        var trials: [Trial]
        var freshInstallDifference: String?
        var findings: [Finding]
        var agrees: Bool

        init(_ path: CrashTest.Report.Path) {
            let interruptions = path.interruptions
            from = interruptions.from.text
            to = interruptions.to.text
            commitPoints = interruptions.points.map(Point.init)
            trials = zip(interruptions.trials, path.terminations).map(Trial.init)
            freshInstallDifference = interruptions.freshInstallDifference
            findings = interruptions.findings.map(Finding.init)
            agrees = interruptions.agrees
        }
    }

    var format = JSONOutput.format
    var command = "test"
    var app: String?
    var manifest: String
    var store: String
    var seed: UInt64
    var maxTrials: Int?
    var paths: [Path]
    /// The schemas or databases the trials left on the server.
    var leftOnServer: [String]?
    var agrees: Bool
    var exitCode: Int32

    init(_ report: CrashTest.Report, manifest: Manifest, store: String) {
        app = manifest.app
        self.manifest = manifest.source.path
        self.store = store
        seed = report.selection.seed
        maxTrials = report.selection.maxTrials
        paths = report.paths.map(Path.init)
        leftOnServer = report.leftOnServer?.names
        agrees = report.agrees
        exitCode = report.agrees ? ExitStatus.ok.rawValue : ExitStatus.stepFailed.rawValue
    }
}
