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

            Exit codes: 0 ok or nothing to do, 1 a step failed, 2 an interrupted step needs \
            `resolve`, 3 downgrade refused, 4 `status --check` found pending steps, 64 usage, 65 \
            invalid manifest (or a warning under `validate --strict`), 66 manifest not found, 69 store \
            unreachable, 74 state or journal I/O error, 75 lock not acquired in time, 128 + n \
            interrupted by a signal (129 SIGHUP, 130 SIGINT, 131 SIGQUIT, 143 SIGTERM).

            Shell completion: milepost --generate-completion-script bash|zsh|fish
            """,
        version: MilepostRelease.description,
        subcommands: [
            Validate.self, PlanCommand.self, Run.self, Status.self, History.self, Steps.self, Baseline.self,
            Resolve.self, Schema.self,
        ]
    )
}
