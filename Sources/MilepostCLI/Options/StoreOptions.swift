import ArgumentParser
import Foundation
import Milepost

/// `--store` (env `MILEPOST_STORE`, default `.milepost`): a directory, or a PostgreSQL URL.
struct StoreOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "The store: a directory, or postgres://… (env MILEPOST_STORE; default .milepost).", valueName: "store"))
    var store: String?

    var spec: String {
        store ?? ProcessInfo.processInfo.environment["MILEPOST_STORE"] ?? ".milepost"
    }

    func open() throws -> any MilepostStore {
        let spec = spec
        if let open = CommandContext.openStore { return try open(spec) }
        if spec.hasPrefix("postgres://") || spec.hasPrefix("postgresql://") {
            throw StoreError.unreachable(location: "postgres", reason: "this build has no PostgreSQL store")
        }
        return FileStore(directory: spec)
    }
}
