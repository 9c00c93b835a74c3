import Logging

/// A step's log handler: every message, and every text of its metadata, with the manifest's secret
/// values masked before `base` writes it. The runner gives each step's logger one
/// (`SecretValues.redacting(_:)`), so that what a step logs (an `exec` step's command at debug, a
/// control line it ignored, a Swift step's own words) never shows a secret, whatever the handler.
struct RedactingLogHandler: LogHandler {
    var base: any LogHandler
    let secrets: SecretValues

    var logLevel: Logger.Level {
        get { base.logLevel }
        set { base.logLevel = newValue }
    }

    var metadata: Logger.Metadata {
        get { base.metadata }
        set { base.metadata = newValue }
    }

    var metadataProvider: Logger.MetadataProvider? {
        get { base.metadataProvider }
        set { base.metadataProvider = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { base[metadataKey: key] }
        set { base[metadataKey: key] = newValue }
    }

    func log(event: LogEvent) {
        var event = event
        event.message = "\(secrets.redact(event.message.description))"
        event.metadata = event.metadata?.mapValues(redact)
        base.log(event: event)
    }

    private func redact(_ value: Logger.Metadata.Value) -> Logger.Metadata.Value {
        switch value {
        case .string(let text): .string(secrets.redact(text))
        case .stringConvertible(let convertible): .string(secrets.redact(convertible.description))
        case .array(let values): .array(values.map(redact))
        case .dictionary(let values): .dictionary(values.mapValues(redact))
        }
    }
}

extension SecretValues {
    /// `logger` with the secret values masked in what it writes; `logger` itself when there are none.
    func redacting(_ logger: Logger) -> Logger {
        guard !all.isEmpty else { return logger }
        var redacting = logger
        redacting.handler = RedactingLogHandler(base: logger.handler, secrets: self)
        return redacting
    }
}
