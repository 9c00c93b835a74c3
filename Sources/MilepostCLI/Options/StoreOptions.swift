import ArgumentParser
import Foundation
import Milepost

/// `--store` (env `MILEPOST_STORE`, default `.milepost`): a directory, or whatever the binary's store opener accepts.
struct StoreOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "The store: a directory, or postgres://… (env MILEPOST_STORE; default .milepost).", valueName: "store"))
    var store: String?

    var spec: String { Self.spec(store) }

    func open(in context: CommandContext) throws -> any MilepostStore { try context.openStore(spec) }

    /// The store named by the flag, else the environment, else the default.
    static func spec(_ flag: String?) -> String {
        flag ?? ProcessInfo.processInfo.environment["MILEPOST_STORE"] ?? ".milepost"
    }
}
