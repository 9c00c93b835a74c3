import MilepostSystem

/// `milepost_lease=DURATION` in a server store's URL (PostgreSQL, MariaDB): how long a lease lock
/// lasts unless its holder's heartbeat renews it. One rule for both stores' URLs; each store says
/// the longest lease it can hold.
package enum LeaseParameter {
    /// The parameter's name.
    package static let name = "milepost_lease"
    /// The lease without the parameter.
    package static let defaultLease = Duration.seconds(30)
    /// The shortest lease: renewals every quarter of it must stay well above a round trip.
    static let minimumLease = Duration.milliseconds(500)

    /// The lease `text` asks for (the default when nil), and why `text` is refused — not a
    /// duration, shorter than `minimumLease` or longer than `maximum`, which `limit` explains — as
    /// `milepost_lease=TEXT: …`; nil when it is not.
    package static func read(_ text: String?, maximum: Duration, limit: String) -> (lease: Duration, problem: String?) {
        guard let text else { return (defaultLease, nil) }
        do {
            return (try DurationText.read(text, within: DurationBounds(minimum: minimumLease, maximum: maximum, limit: limit)), nil)
        } catch {
            return (defaultLease, "\(name)=\(text): \(error)")
        }
    }
}
