import ArgumentParser
import Foundation
import Milepost

/// `--store` (env `MILEPOST_STORE`, default `.milepost`): a directory, or whatever the binary's store opener accepts.
struct StoreOptions: ParsableArguments {
    @Option(name: .customLong(OptionNames.store), help: ArgumentHelp(
        "The store: a directory, or postgres://… (env MILEPOST_STORE; default .milepost).", valueName: "store"))
    var store: String?

    /// Refuses an empty `--store` or `MILEPOST_STORE` while parsing, with the command's usage.
    func validate() throws { _ = try Self.spec(store) }

    func open(in context: CommandContext) throws -> any MilepostStore { try context.openStore(Self.spec(store)) }

    /// The store named by the flag, else the environment, else the default.
    /// - throws: `ValidationError` when the flag or `MILEPOST_STORE` is empty.
    static func spec(_ flag: String?) throws -> String {
        try Setting.value(flag: flag, named: OptionNames.store, environment: "MILEPOST_STORE") ?? ".milepost"
    }
}
