import ArgumentParser
import Milepost

/// `--history STORE` (repeatable; env `MILEPOST_HISTORY`, one store): other stores whose journals
/// tell how long steps take — a staging store, a CI run's, other hosts' host stores.
struct HistoryOption: ParsableArguments {
    @Option(
        name: .customLong(OptionNames.history),
        help: ArgumentHelp(
            "Another store whose journal tells how long steps take (a staging or CI store); repeat it for more "
                + "(env \(Setting.variable(OptionNames.history)): one store).",
            valueName: "store"))
    var history: [String] = []

    func validate() throws { _ = try specs }

    /// The flags' stores, else `MILEPOST_HISTORY`'s one store; empty when neither names any.
    /// - throws: `ValidationError` when a flag or the variable is empty.
    var specs: [String] {
        get throws {
            if history.isEmpty {
                return try Setting.value(flag: nil, named: OptionNames.history, environment: Setting.variable(OptionNames.history))
                    .map { [$0] } ?? []
            }
            for spec in history where spec.isEmpty { throw ValidationError("--\(OptionNames.history) must not be empty") }
            return history
        }
    }

    /// Opens the stores.
    func open(in context: CommandContext) throws -> [any MilepostStore] {
        try specs.map(context.openStore)
    }
}
