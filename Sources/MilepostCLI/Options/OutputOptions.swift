public import ArgumentParser
public import Logging

/// `--format` of the commands that print a report: text for people, one JSON document for machines.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json
}

/// `--format` of `validate`: also GitHub Actions workflow annotations, and Markdown for a job summary.
enum DiagnosticFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json, github, markdown
}

/// `--format` of `run` and `status`: also text with a GitHub Actions annotation for a failed or
/// interrupted step (its error and the tail of its stderr).
enum ReportFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json, github
}

/// `--format` of `plan`: also Markdown, for a job summary or a pull-request comment, and GitHub
/// workflow annotations after the text.
enum PlanFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json, markdown, github
}

/// `--log-format`: how diagnostics are written on stderr.
enum LogFormat: String, ExpressibleByArgument, CaseIterable {
    /// `time level label: [metadata] message` lines (swift-log's `StreamLogHandler`).
    case text
    /// One JSON object per line (`JSONLogHandler`).
    case json

    /// What `--log-format V` or `--log-format=V` in `arguments` asks for, read before the parser
    /// runs (the last one wins, as in the parser), else `MILEPOST_LOG_FORMAT`; nil when none is valid.
    static func requested(in arguments: [String]) -> LogFormat? {
        let option = "--" + OptionNames.logFormat
        var requested: LogFormat?
        for (index, argument) in arguments.enumerated() {
            guard argument != "--" else { break }
            let value = argument == option ? arguments.dropFirst(index + 1).first
                : argument.hasPrefix(option + "=") ? String(argument.dropFirst(option.count + 1)) : nil
            if let format = value.flatMap(LogFormat.init(argument:)) { requested = format }
        }
        return requested ?? (try? Setting.value(nil, named: OptionNames.logFormat))
    }
}

/// `--log-level` and `--log-format` (env `MILEPOST_LOG_LEVEL`, `MILEPOST_LOG_FORMAT`), shared by
/// every command.
struct LoggingOptions: ParsableArguments {
    @Option(
        name: .customLong(OptionNames.logLevel),
        help: "Log level for diagnostics on stderr \(Setting.help(OptionNames.logLevel, default: "warning")).")
    var logLevel: Logger.Level?
    @Option(
        name: .customLong(OptionNames.logFormat),
        help: ArgumentHelp(
            "Diagnostics on stderr as text lines or one JSON object per line (time, level, message, run, step, trace_id, "
                + "span_id) \(Setting.help(OptionNames.logFormat, default: "text"))."))
    var logFormat: LogFormat?

    /// Refuses an empty or bad `MILEPOST_LOG_LEVEL` or `MILEPOST_LOG_FORMAT` while parsing, with the
    /// command's usage; after it, `level` and `format` cannot throw.
    func validate() throws {
        _ = try level
        _ = try format
    }

    /// The flag's level, else `MILEPOST_LOG_LEVEL`'s, else `warning`.
    var level: Logger.Level {
        get throws { try Setting.value(logLevel, named: OptionNames.logLevel) ?? .warning }
    }

    /// The flag's format, else `MILEPOST_LOG_FORMAT`'s, else `text`.
    var format: LogFormat {
        get throws { try Setting.value(logFormat, named: OptionNames.logFormat) ?? .text }
    }

    /// The logger of a command; `metadataProvider` adds fields to every record (trace and span ids).
    func makeLogger(metadataProvider: Logger.MetadataProvider? = nil) -> Logger {
        // `validate()` refused a bad variable before the command ran.
        let format = (try? self.format) ?? .text
        var logger = Logger(label: "milepost") { label in
            switch format {
            case .text: StreamLogHandler.standardError(label: label, metadataProvider: metadataProvider) as any LogHandler
            case .json: JSONLogHandler(metadataProvider: metadataProvider)
            }
        }
        logger.logLevel = (try? level) ?? .warning
        return logger
    }

    /// Under `--log-format json`, makes every line of stderr one JSON object from now on
    /// (`JSONLogHandler.frameStandardError`), not only the log records.
    func frameStandardError() {
        if (try? format) == .json { JSONLogHandler.frameStandardError() }
    }
}

/// A command with `--log-level` and `--log-format`: `MilepostCLI.main` frames stderr as its
/// `--log-format` says before the command runs.
protocol LoggingCommand {
    var logging: LoggingOptions { get }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
extension Logger.Level: SettingValue {}
extension LogFormat: SettingValue {}
extension ReportFormat: SettingValue {}
