public import ArgumentParser
import Milepost

/// `--phase pre-start|contract|background` (env `MILEPOST_PHASE`): which steps besides the pre-start
/// steps a run runs (`StepPhase`, `RunOptions.phase`).
struct PhaseOption: ParsableArguments {
    @Option(name: .customLong(OptionNames.phase), help: ArgumentHelp(
        "pre-start: what the release needs before it starts; contract: also the contract steps up to --to, once no "
            + "older release runs (after the rollout); background: also the background steps "
            + Setting.help(OptionNames.phase, default: StepPhase.preStart.rawValue) + ".",
        valueName: "phase"))
    var phase: StepPhase?

    func validate() throws { _ = try resolved }

    /// The flag's phase, else `MILEPOST_PHASE`'s, else pre-start.
    var resolved: StepPhase {
        get throws { try given ?? .preStart }
    }

    /// The flag's phase, else `MILEPOST_PHASE`'s; nil when neither gives one.
    var given: StepPhase? {
        get throws { try Setting.value(phase, named: OptionNames.phase) }
    }
}

extension StepPhase: ExpressibleByArgument, SettingValue {}
