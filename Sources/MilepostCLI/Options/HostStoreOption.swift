import ArgumentParser
import Milepost

/// `--host-store DIR` (env `MILEPOST_HOST_STORE`): where this host's `scope: host` steps are recorded.
struct HostStoreOption: ParsableArguments {
    @Option(name: .customLong(OptionNames.hostStore), help: ArgumentHelp(
        "This host's own store, for the steps that run once on every host (scope: host): a directory on the host "
            + "(env MILEPOST_HOST_STORE). Needed when the manifest has such steps.",
        valueName: "directory"))
    var hostStore: String?

    func validate() throws { _ = try Self.spec(hostStore) }

    /// Opens the host store; nil when neither the flag nor the variable names one.
    func open(in context: CommandContext) throws -> (any MilepostStore)? {
        try Self.spec(hostStore).map(context.openStore)
    }

    static func spec(_ flag: String?) throws -> String? {
        try Setting.value(flag: flag, named: OptionNames.hostStore, environment: environmentName)
    }

    static let environmentName = "MILEPOST_HOST_STORE"
}
