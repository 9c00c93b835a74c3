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

/// `--format` of `plan`: also Markdown, for a job summary or a pull-request comment.
enum PlanFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json, markdown
}

/// `--log-level`, shared by every command.
struct LoggingOptions: ParsableArguments {
    @Option(name: .customLong(OptionNames.logLevel), help: "Log level for diagnostics on stderr.")
    var logLevel: Logger.Level = .warning

    func makeLogger() -> Logger {
        var logger = Logger(label: "milepost") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = logLevel
        return logger
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
