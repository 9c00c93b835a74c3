import ArgumentParser
import MilepostSystem

/// Where each trial of `milepost test` keeps its store (`--store`): a fresh one per trial. `file`
/// (the default): a directory in the trial's sandbox; `sqlite`: a database file there; a
/// `postgres://` URL: a schema of its own in that database (`milepost_schema`, the URL's or
/// `milepost`, with the test's token and the trial's number); a `mysql://` or `mariadb://` URL: a
/// database of its own beside the URL's. The stores on a server are left there when the test ends
/// (`onServer`): the stores cannot drop a schema or a database.
struct TrialStores: Sendable {
    private enum Kind: Sendable {
        case file, sqlite
        /// The URL before its query, and its query's parameters without `milepost_schema`.
        case postgres(base: String, parameters: [String], schema: String)
        /// The URL up to its database, the database, and what follows it (`?…`).
        case mariadb(head: String, database: String, tail: String)
    }

    private let kind: Kind
    /// Distinguishes this test's stores on a server from another test's.
    let token: String

    /// The stores `value` asks for (nil: file); `schemes` are the URL schemes this binary opens.
    /// - throws: `ValidationError` for a value that names no kind of store a trial can have afresh.
    init(_ value: String?, schemes: [String], token: String) throws {
        self.token = token
        let value = value ?? "file"
        switch StoreSpec.scheme(of: value) {
        case nil where value == "file": kind = .file
        case "sqlite" where value == "sqlite" || value == "sqlite:": kind = .sqlite
        case let scheme? where ["postgres", "postgresql"].contains(scheme) && value.hasPrefix(scheme + "://"):
            // Split as the store splits it (`StoreURL`, libpq's reading: a `?` in the password is the password's).
            guard let url = StoreURL(value) else { throw Self.unknownKind }
            let parameters = (url.query ?? []).map(String.init)
            let isSchema = { (item: String) in item.hasPrefix(Self.schemaParameter) }
            let schema = parameters.first(where: isSchema).map { item in
                let text = item.dropFirst(Self.schemaParameter.count)
                return PercentDecoding.decoded(text) ?? String(text)
            }
            kind = .postgres(base: String(url.base), parameters: parameters.filter { !isSchema($0) }, schema: schema ?? "milepost")
        case let scheme? where ["mysql", "mariadb"].contains(scheme) && value.hasPrefix(scheme + "://"):
            guard let url = StoreURL(value) else { throw Self.unknownKind }
            let location = url.location.unicodeScalars
            guard let slash = location.lastIndex(of: "/"), location.index(after: slash) < location.endIndex else {
                throw ValidationError("--store: name a database in the URL (mysql://user@host/DATABASE): each trial gets one named after it")
            }
            let database = String(location[location.index(after: slash)...])
            kind = .mariadb(
                head: String(url.base.unicodeScalars.dropLast(database.unicodeScalars.count)), database: database,
                tail: url.query.map { "?" + $0.joined(separator: "&") } ?? "")
        default:
            throw Self.unknownKind
        }
        if case .file = kind { return }
        try StoreSpec.check(spec(trial: 0, in: "/"), schemes: schemes)
    }

    /// The store of trial `number`, whose sandbox is the directory `sandbox`.
    func spec(trial number: Int, in sandbox: String) -> String {
        switch kind {
        case .file: sandbox + "/store"
        case .sqlite: "sqlite:" + sandbox + "/store.db"
        case .postgres(let base, let parameters, let schema):
            base + "?" + (parameters + ["milepost_schema=" + name(schema, trial: number)]).joined(separator: "&")
        case .mariadb(let head, let database, let tail): head + name(database, trial: number) + tail
        }
    }

    /// The schemas or databases a test of `trials` trials leaves on the server, nil for stores in
    /// the sandboxes (removed with them).
    func onServer(trials: Int) -> (noun: String, names: [String])? {
        switch kind {
        case .file, .sqlite: nil
        case .postgres(_, _, let schema): ("schemas", (1...max(1, trials)).map { name(schema, trial: $0) })
        case .mariadb(_, let database, _): ("databases", (1...max(1, trials)).map { name(database, trial: $0) })
        }
    }

    private static let schemaParameter = "milepost_schema="

    private static let unknownKind = ValidationError(
        "--store: milepost test makes a fresh store for each trial: give file (the default), sqlite, "
            + "or a postgres:// or mysql:// URL (each trial gets a schema or a database of its own)")

    private func name(_ base: String, trial number: Int) -> String {
        "\(base.prefix(40))_t\(token)_\(number)"
    }
}
