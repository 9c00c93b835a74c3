public import ArgumentParser
public import Logging

/// The output format of a command.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json, github
}

/// `--log-level`, shared by every command.
struct LoggingOptions: ParsableArguments {
    @Option(name: .long, help: "Log level for diagnostics on stderr: trace, debug, info, notice, warning, error, critical.")
    var logLevel: Logger.Level = .warning

    func makeLogger() -> Logger {
        var logger = Logger(label: "milepost") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = logLevel
        return logger
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
