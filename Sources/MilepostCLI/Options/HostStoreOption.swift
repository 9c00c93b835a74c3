import ArgumentParser
import Milepost

/// `--host-store DIR` (env `MILEPOST_HOST_STORE`): where this host's `scope: host` steps are recorded.
struct HostStoreOption: ParsableArguments {
    @Option(name: .customLong(OptionNames.hostStore), help: ArgumentHelp(
        "This host's own store, for the steps that run once on every host (scope: host): a directory on the host "
            + Setting.help(OptionNames.hostStore) + ". Needed when the manifest has such steps.",
        valueName: "directory"))
    var hostStore: String?

    func validate() throws { _ = try spec }

    /// The flag's store, else `MILEPOST_HOST_STORE`'s; nil when neither names one.
    /// - throws: `ValidationError` when either is empty.
    var spec: String? {
        get throws { try Setting.value(flag: hostStore, named: OptionNames.hostStore, environment: Setting.variable(OptionNames.hostStore)) }
    }

    /// Opens the host store; nil when neither the flag nor the variable names one.
    func open(in context: CommandContext) throws -> (any MilepostStore)? {
        try spec.map(context.openStore)
    }
}
