import Foundation
import Logging
import MilepostSystem

/// `--log-format json`: one JSON object per line on stderr, for log pipelines (Kubernetes, Loki):
/// `time` (UTC, ISO 8601 with milliseconds), `level`, `message`, and every metadata field as a
/// string — `run` and `step` during a step, `trace_id` and `span_id` when a tracer is exporting.
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
        fields["time"] = Timestamp.now().text
        fields["level"] = event.level.rawValue
        fields["message"] = event.message.description
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let line = try? encoder.encode(fields) else { return }
        StandardStream.error.write(String(decoding: line, as: UTF8.self) + "\n")
    }
}
