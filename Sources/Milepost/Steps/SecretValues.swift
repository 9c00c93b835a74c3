import MilepostSystem
import Synchronization

/// The values of a manifest's secret variables (listed under `secrets:` or written
/// `${secret:NAME}`): the runner masks them as `***` in everything it writes — step errors in the
/// state, the journal and the report, logs, and the output of `exec` children.
final class SecretValues: Sendable {
    private let values = Mutex<Set<String>>([])

    init() {}

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
