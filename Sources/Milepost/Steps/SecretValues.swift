import MilepostSystem
import Synchronization

/// The values of a manifest's secret variables (listed under `secrets:` or written
/// `${secret:NAME}`): the runner masks them as `***` in everything it writes — step errors in the
/// state, the journal and the report, logs, and the output of `exec` children.
final class SecretValues: Sendable {
    private let values = Mutex<Set<String>>([])

    init() {}

    /// The fewest characters a secret value may have: a shorter one (`x`, `abc`) would mask that text
    /// wherever it occurs — in every word of every message and output — and hide nothing.
    static let minimumLength = 6

    /// Why the value of the secret variable `name` cannot be masked (it is shorter than
    /// `minimumLength`), worded for a manifest author; nil when it can, or is empty (nothing to mask).
    /// The value itself is never in the message.
    static func unmaskable(_ value: String, name: String) -> String? {
        guard !value.isEmpty, value.count < minimumLength else { return nil }
        return "the value of the secret variable '\(name)' is too short to mask (\(value.count) of at least "
            + "\(minimumLength) characters): masking it would hide that text everywhere and protect nothing; "
            + "give it a longer value, or, if it need not be hidden, do not declare it a secret"
    }

    /// Adds a value to mask (an empty one is ignored).
    func insert(_ value: String) {
        guard !value.isEmpty else { return }
        _ = values.withLock { $0.insert(value) }
    }

    /// Every value to mask.
    var all: [String] { values.withLock { Array($0) } }

    /// `text` with every secret value replaced by `***`.
    func redact(_ text: String) -> String {
        let all = all
        return all.isEmpty ? text : Redactor(all).redact(text)
    }
}
