import FoundationEssentials
import Milepost
import MilepostSystem

/// What `--store mysql://user:password@host:port/database?…` says: where to connect, Milepost's own
/// parameter `milepost_lease`, and the URL shown in messages (no password). `socket=PATH` connects
/// through a Unix socket instead of TCP.
package struct MariaDBSettings: Sendable {
    var host: String?
    var port: UInt32
    var user: String?
    package var password: String?
    /// The database holding Milepost's tables (created on the first lock when missing).
    var database: String
    var socket: String?
    /// `milepost_lease`: how long a lease lasts unless renewed (default 30 s).
    let lease: Duration
    /// The URL without its password, for messages.
    package let location: String
    /// Why these settings cannot be used; refused when the store is first used.
    package let refusal: String?

    static let defaultPort: UInt32 = 3306

    package init(url: String) {
        location = URLPassword.removed(from: url)
        // Split as every store URL is (`StoreURL`, libpq's reading): what `location` leaves out is
        // exactly the password read here. `mysql:db`, without `//`, is refused below.
        let parts = StoreURL(url)
        let base = parts?.location ?? url[...]
        let slash = base.firstIndex(of: "/") ?? base.endIndex
        var authority = base[..<slash]
        database = Self.decoded(base[slash...].dropFirst())
        user = parts?.user.map(Self.decoded)
        password = parts?.password.map(Self.decoded)
        var invalid: String?
        if let colon = authority.lastIndex(of: ":"), !authority.hasSuffix("]") {
            let portText = authority[authority.index(after: colon)...]
            if let parsed = UInt32(portText), parsed <= 65535 { port = parsed } else {
                port = Self.defaultPort
                invalid = "the port \(portText) is not a number from 0 to 65535"
            }
            authority = authority[..<colon]
        } else {
            port = Self.defaultPort
        }
        let hostText = authority.hasPrefix("[") && authority.hasSuffix("]") ? authority.dropFirst().dropLast() : authority
        host = hostText.isEmpty ? nil : Self.decoded(hostText)
        var leaseText: String?
        for item in parts?.query ?? [] {
            let (name, written) = StoreURL.parameter(item)
            let value = Self.decoded(written)
            switch name {
            case "socket": socket = value
            case Substring(LeaseParameter.name): leaseText = value
            case "password": password = value
            case "user": user = value
            default: invalid = invalid ?? "unknown URL parameter \(name) (known: socket, user, password, \(LeaseParameter.name))"
            }
        }
        let read = LeaseParameter.read(
            leaseText, maximum: .seconds(1_000_000 * 86_400),
            limit: "the lease's expiry, the server's time plus the lease, must be a DATETIME before the year 9999")
        if let problem = read.problem { invalid = "invalid URL parameter \(problem)" }
        lease = read.lease
        if database.isEmpty {
            invalid = invalid ?? "the URL names no database; write mysql://user:password@host:port/DATABASE"
        } else if database.utf8.count > 64 || database.contains("`") || database.contains("/") {
            invalid = invalid ?? "the database name \(database) is not one Milepost creates (at most 64 bytes, no ` or /)"
        }
        // `mysql:db` (the form of `sqlite:PATH`) read as an authority would blame a port "db".
        if parts == nil {
            invalid = "the URL has no //; write mysql://user:password@host:port/DATABASE"
        }
        refusal = invalid
    }

    /// The database name quoted as an identifier.
    var quotedDatabase: String { "`\(database)`" }

    private static func decoded(_ text: Substring) -> String {
        PercentDecoding.decoded(text) ?? String(text)
    }
}
