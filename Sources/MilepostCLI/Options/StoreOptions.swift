import ArgumentParser
import Foundation
import Milepost
import MilepostPostgres

/// `--store` (env `MILEPOST_STORE`, default `.milepost`): a directory, or a PostgreSQL URL.
struct StoreOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "The store: a directory, or postgres://… (env MILEPOST_STORE; default .milepost).", valueName: "store"))
    var store: String?

    var spec: String {
        store ?? ProcessInfo.processInfo.environment["MILEPOST_STORE"] ?? ".milepost"
    }

    /// A `PostgresStore` for `postgres://` and `postgresql://` URLs, else a `FileStore`.
    func open() throws -> any MilepostStore {
        PostgresStore.accepts(spec) ? PostgresStore(url: spec) : FileStore(directory: spec)
    }
}
