import FoundationEssentials
import Logging
import Milepost
import MilepostSystem
import Synchronization

/// `--log-format json`: one JSON object per line on stderr, for log pipelines (Kubernetes, Loki):
/// `time` (UTC, ISO 8601 with milliseconds), `level`, `message`, and every metadata field as a
/// string — `run`, `step` and `attempt` during a step (and `outcome` when it ends), `trace_id` and
/// `span_id` when a tracer is exporting.
/// Keys are sorted; docs/observability.md lists them.
struct JSONLogHandler: LogHandler {
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var fields: [String: String] = [:]
        let provided = metadataProvider?.get() ?? [:]
        for (key, value) in metadata.merging(provided, uniquingKeysWith: { _, new in new })
            .merging(event.metadata ?? [:], uniquingKeysWith: { _, new in new }) {
            fields[key] = value.description
        }
        fields["level"] = event.level.rawValue
        fields["message"] = event.message.description
        StandardStream.error.writeFramed(Self.line(fields) + "\n")
    }

    /// One record: `fields` with `time`, as one line of JSON (without its newline).
    static func line(_ fields: [String: String]) -> String {
        var fields = fields
        fields["time"] = Timestamp.now().text
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(fields)).map { String(decoding: $0, as: UTF8.self) } ?? #"{"level":"error","message":"unencodable"}"#
    }

    /// From now on, every other line on stderr — `run`'s progress and summary, a step's output copied
    /// through Milepost, an error's message — is one record too: `level` `info` (`error` for an
    /// error), `message` the line, and while a step runs `step` and `attempt` (`trackingSteps`), with
    /// `outcome` on the line that says how it ended.
    static func frameStandardError() {
        StandardStream.frameErrorLines { line, isError in
            var fields = stepFields.withLock { $0 }
            fields["level"] = isError ? "error" : "info"
            fields["message"] = line
            return Self.line(fields)
        }
    }

    /// The step the run is at, as fields of every framed line.
    private static let stepFields = Mutex<[String: String]>([:])

    /// `handler` with the fields of framed lines kept to the step the run is at: `step` and
    /// `attempt` from its start, `outcome` for what `handler` prints when it ends, none after.
    static func trackingSteps(_ handler: (@Sendable (RunProgress) -> Void)?) -> @Sendable (RunProgress) -> Void {
        { progress in
            switch progress {
            case .stepStarted(let id, _, _, let attempt):
                stepFields.withLock { $0 = ["step": id, "attempt": "\(attempt)"] }
            case .stepFinished(let result, _, _):
                stepFields.withLock { $0 = ["step": result.id, "attempt": "\(result.attempts)", "outcome": result.status.rawValue] }
            case .stepProgress, .hookFinished:
                break
            }
            handler?(progress)
            if case .stepFinished = progress { stepFields.withLock { $0 = [:] } }
        }
    }
}
