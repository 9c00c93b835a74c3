import ArgumentParser
import MilepostSystem

/// `--deadline D` (env `MILEPOST_DEADLINE`): how long the pending work may take. `plan` checks
/// the work at p95 against it; `run` stops before a step that no longer fits what is left.
struct DeadlineOption: ParsableArguments {
    @Option(
        name: .customLong(OptionNames.deadline),
        help: ArgumentHelp(
            "How long the pending work may take, at each step's p95 (else its expected:) "
                + "\(Setting.help(OptionNames.deadline)): plan fails (exit \(ExitStatus.deadline.rawValue)) when it does not fit, "
                + "run stops before a step that no longer fits what is left.",
            valueName: "duration"),
        transform: DurationArgument.init(parsing:))
    var deadline: DurationArgument?

    func validate() throws { _ = try resolved }

    /// The flag's deadline, else `MILEPOST_DEADLINE`'s; nil when neither gives one.
    var resolved: Duration? {
        get throws { try Setting.value(deadline, named: OptionNames.deadline)?.duration }
    }
}
