import Foundation
import MilepostSystem

/// What `--store postgres://…` says: the URL handed to libpq, the schema Milepost uses (its own
/// `milepost_schema` parameter, taken out of the URL) and the URL shown in messages (no password).
struct ConnectionSettings: Sendable {
    /// The URL libpq parses (with `milepost_schema` removed).
    let url: String
    let schema: String
    /// The URL without its password, for messages.
    let location: String

    /// The query parameter that names the schema; libpq itself would refuse it.
    static let schemaParameter = "milepost_schema"
    static let defaultSchema = "milepost"

    /// - parameter schema: overrides the URL's `milepost_schema`; default `milepost`.
    init(url: String, schema: String? = nil) {
        let (base, query) = Self.split(url)
        var kept: [String] = []
        var fromURL: String?
        for item in query {
            if item.hasPrefix(Self.schemaParameter + "=") {
                let value = item.dropFirst(Self.schemaParameter.count + 1)
                fromURL = String(value).removingPercentEncoding ?? String(value)
            } else {
                kept.append(item)
            }
        }
        self.url = Self.join(base, kept)
        self.schema = schema ?? fromURL ?? Self.defaultSchema
        self.location = Self.join(Self.removingPassword(from: base), kept.filter { !$0.hasPrefix("password=") })
    }

    /// libpq keywords for `PQconnectdbParams`. Milepost's defaults come before `dbname`, whose
    /// expansion (the URL) overrides them; `PG*` variables still apply to anything neither sets.
    func parameters(environment: [String: String] = ProcessInfo.processInfo.environment) -> [(String, String)] {
        var parameters = [
            // Used only when neither the URL nor PGAPPNAME sets application_name.
            ("fallback_application_name", "milepost \(ProcessIdentity.text)"),
            ("keepalives", "1"),
            ("keepalives_idle", "10"),
            ("keepalives_interval", "5"),
            ("keepalives_count", "3"),
        ]
        if environment["PGCONNECT_TIMEOUT"] == nil { parameters.append(("connect_timeout", "10")) }
        parameters.append(("dbname", url))
        return parameters
    }

    /// `scheme://authority/path` and the `&`-separated items of the query.
    private static func split(_ url: String) -> (String, [String]) {
        guard let mark = url.firstIndex(of: "?") else { return (url, []) }
        let query = url[url.index(after: mark)...].split(separator: "&").map(String.init)
        return (String(url[..<mark]), query)
    }

    private static func join(_ base: String, _ query: [String]) -> String {
        query.isEmpty ? base : base + "?" + query.joined(separator: "&")
    }

    /// `postgres://user:secret@host/db` → `postgres://user@host/db`.
    private static func removingPassword(from base: String) -> String {
        guard let schemeEnd = base.range(of: "://") else { return base }
        let rest = base[schemeEnd.upperBound...]
        let authorityEnd = rest.firstIndex(of: "/") ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        guard let at = authority.lastIndex(of: "@") else { return base }
        let userInfo = authority[..<at]
        let user = userInfo.firstIndex(of: ":").map { userInfo[..<$0] } ?? userInfo
        return String(base[..<schemeEnd.upperBound]) + user + authority[at...] + rest[authorityEnd...]
    }
}
