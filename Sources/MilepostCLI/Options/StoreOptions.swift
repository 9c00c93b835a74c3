import ArgumentParser
import Foundation
import Milepost
import MilepostPostgres

/// `--store` (env `MILEPOST_STORE`, default `.milepost`): a directory, or a PostgreSQL URL.
struct StoreOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "The store: a directory, or postgres://… (env MILEPOST_STORE; default .milepost).", valueName: "store"))
    var store: String?

    /// Refuses an empty `--store` or `MILEPOST_STORE` while parsing, with the command's usage.
    func validate() throws { _ = try Self.spec(store) }

    func open() throws -> any MilepostStore { try Self.open(Self.spec(store)) }

    /// The store named by the flag, else the environment, else the default.
    /// - throws: `ValidationError` when the flag or `MILEPOST_STORE` is empty.
    static func spec(_ flag: String?) throws -> String {
        try Setting.value(flag: flag, named: "store", environment: "MILEPOST_STORE") ?? ".milepost"
    }

    /// The application's store opener if it has one; else a `PostgresStore` for `postgres://` and
    /// `postgresql://` URLs and a `FileStore` for anything else.
    static func open(_ spec: String) throws -> any MilepostStore {
        if let open = CommandContext.openStore { return try open(spec) }
        return PostgresStore.accepts(spec) ? PostgresStore(url: spec) : FileStore(directory: spec)
    }
}
