import ArgumentParser

/// `milepost`: run one-time upgrade steps when an application moves past a version.
struct MilepostCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "milepost",
        abstract: "Run one-time upgrade steps when an application moves past a version.",
        discussion: """
            A YAML manifest maps version thresholds to named steps. `run` compares the stored \
            version with --to and runs every step whose threshold lies in between, once, with a \
            checkpoint per step and a journal of every run.

            Exit codes: \(ExitStatus.summary).

            Environment: every option of run may be given by a variable instead, MILEPOST_ and its name in \
            upper case (\(Setting.runVariables)); the flag wins, an empty or bad value is a usage error \
            (64), and --dry-run, --allow-downgrade and --existing-store take 1, true, yes or 0, false, no.

            Shell completion: milepost --generate-completion-script bash|zsh|fish
            """,
        version: MilepostRelease.description,
        subcommands: [
            Validate.self, PlanCommand.self, Run.self, Wait.self, Status.self, History.self, Versions.self, Steps.self,
            Revert.self, Baseline.self, Resolve.self, Approve.self, StoreCommand.self, Schema.self, Init.self, New.self, Lock.self,
            TestCommand.self,
        ]
    )

    /// Every usage error starts as milepost's other errors do, ArgumentParser's own too.
    static var _errorPrefix: String { "milepost: error: " }
}
