import MilepostSystem

/// `milepost_lease=DURATION` in a server store's URL (PostgreSQL, MariaDB): how long a lease lock
/// lasts unless its holder's heartbeat renews it. One rule for both stores' URLs.
package enum LeaseParameter {
    /// The parameter's name.
    package static let name = "milepost_lease"
    /// The lease without the parameter.
    package static let defaultLease = Duration.seconds(30)
    /// The shortest lease: renewals every quarter of it must stay well above a round trip.
    package static let minimumLease = Duration.milliseconds(500)

    /// The lease `text` asks for (the default when nil), and why `text` is refused — not a
    /// duration, or shorter than `minimumLease` — as `milepost_lease=TEXT: …`; nil when it is not.
    package static func read(_ text: String?) -> (lease: Duration, problem: String?) {
        guard let text else { return (defaultLease, nil) }
        let parsed = DurationText.parse(text)
        let problem = (parsed ?? .zero) < minimumLease
            ? "\(name)=\(text): give a duration of at least 500ms, such as 30s or 2m" : nil
        return (parsed.map { max($0, minimumLease) } ?? defaultLease, problem)
    }
}
