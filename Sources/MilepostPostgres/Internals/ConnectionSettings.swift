import FoundationEssentials
import Milepost
import MilepostSystem

/// What `--store postgres://…` says: the URL handed to libpq, Milepost's own parameters (taken
/// out of the URL: `milepost_schema`, `milepost_lock`, `milepost_lease`) and the URL shown in
/// messages (no password).
package struct ConnectionSettings: Sendable {
    /// The URL libpq parses (with Milepost's parameters removed).
    package let url: String
    let schema: String
    /// The URL without its password, for messages.
    package let location: String
    /// `milepost_lock`: the lock asked for; nil to choose from the connection (`LockKind.choose`).
    let lock: LockKind?
    /// `milepost_lease`: how long a lease lasts unless renewed (default 30 s).
    let lease: Duration
    /// Why these settings cannot be used (a Milepost parameter with a value it does not take, a
    /// schema name PostgreSQL would truncate); refused when the store is first used.
    package let refusal: String?

    static let schemaParameter = "milepost_schema"
    static let lockParameter = "milepost_lock"
    static let defaultSchema = "milepost"
    /// The longest identifier PostgreSQL keeps (`NAMEDATALEN` − 1): it cuts longer names without a
    /// word, so two schemas differing after it would share tables while locking on different keys.
    static let maximumSchemaBytes = 63

    /// - parameter schema: overrides the URL's `milepost_schema`; default `milepost`.
    package init(url: String, schema: String? = nil) {
        let parts = StoreURL(url)
        var kept: [Substring] = []
        var ours: [String: String] = [:]
        for item in parts?.query ?? [] {
            let (name, value) = StoreURL.parameter(item)
            if [Self.schemaParameter, Self.lockParameter, LeaseParameter.name].contains(String(name)) {
                ours[String(name)] = PercentDecoding.decoded(value) ?? String(value)
            } else {
                kept.append(item)
            }
        }
        // Where libpq finds the query (`StoreURL`: a `?` in the password does not start it), and
        // written so that it reads as the URL given, less Milepost's parameters.
        self.url = parts.map { String($0.base) + $0.query(keeping: kept) } ?? url
        self.schema = schema ?? ours[Self.schemaParameter] ?? Self.defaultSchema
        self.location = URLPassword.removed(from: self.url)
        var invalid: String?
        if let text = ours[Self.lockParameter], LockKind(rawValue: text) == nil {
            invalid = "\(Self.lockParameter)=\(text): use \(Self.lockParameter)=session or \(Self.lockParameter)=lease"
        }
        self.lock = ours[Self.lockParameter].flatMap(LockKind.init(rawValue:))
        let lease = LeaseParameter.read(
            ours[LeaseParameter.name], maximum: .seconds(24 * 86_400),
            limit: "the store ends its holder's idle transactions after the lease (idle_in_transaction_session_timeout), "
                + "which PostgreSQL counts in milliseconds up to 24.8 days")
        invalid = lease.problem ?? invalid
        self.lease = lease.lease
        if let invalid {
            refusal = "invalid URL parameter \(invalid)"
        } else if self.schema.utf8.count > Self.maximumSchemaBytes {
            refusal = "the schema name \(self.schema) is \(self.schema.utf8.count) bytes long; PostgreSQL cuts names "
                + "at \(Self.maximumSchemaBytes) bytes, so stores whose names differ after that would share one state: "
                + "give \(Self.schemaParameter) a name of at most \(Self.maximumSchemaBytes) bytes"
        } else {
            refusal = nil
        }
    }

    /// libpq keywords for `PQconnectdbParams`. Milepost's defaults come before `dbname`, whose
    /// expansion (the URL) overrides them; `PG*` variables still apply to anything neither sets.
    func parameters(environment: [String: String] = ProcessEnvironment.all()) -> [(String, String)] {
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
}
