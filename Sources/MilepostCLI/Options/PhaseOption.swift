public import ArgumentParser
import Milepost

/// `--phase pre-start|contract|background` (env `MILEPOST_PHASE`): which steps besides the pre-start
/// steps a run runs (`StepPhase`, `RunOptions.phase`).
struct PhaseOption: ParsableArguments {
    @Option(name: .customLong(OptionNames.phase), help: ArgumentHelp(
        "pre-start (default): what the release needs before it starts; contract: also the contract steps up to "
            + "--to, once no older release runs (after the rollout); background: also the background steps "
            + "(env MILEPOST_PHASE).",
        valueName: "phase"))
    var phase: StepPhase?

    func validate() throws { _ = try resolved }

    /// The flag's phase, else `MILEPOST_PHASE`'s, else pre-start.
    var resolved: StepPhase {
        get throws {
            if let phase { return phase }
            guard let text = try Setting.value(flag: nil, named: OptionNames.phase, environment: Self.environmentName) else {
                return .preStart
            }
            guard let phase = StepPhase(rawValue: text) else {
                throw ValidationError(
                    "\(Self.environmentName): invalid phase '\(text)': expected \(StepPhase.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return phase
        }
    }

    static let environmentName = "MILEPOST_PHASE"
}

extension StepPhase: ExpressibleByArgument {}
