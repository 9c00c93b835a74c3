import ArgumentParser
import Milepost

/// `--env-file` (env `MILEPOST_ENV_FILE`): where `${NAME}` in the manifest's `with:` strings take
/// their values from, under the environment.
struct VariableOptions: ParsableArguments {
    @Option(name: .customLong(OptionNames.envFile), help: ArgumentHelp(
        "A dotenv file (NAME=value lines) of values for ${NAME} in with: strings; the environment wins "
            + "\(Setting.help(OptionNames.envFile)).",
        valueName: "file"))
    var envFile: String?

    /// Refuses an empty `MILEPOST_ENV_FILE` while parsing, with the command's usage.
    func validate() throws { _ = try file }

    /// The env file the flag, else `MILEPOST_ENV_FILE`, names; nil when neither names one.
    var file: String? {
        get throws { try Self.file(envFile) }
    }

    /// The env file `flag`, else `MILEPOST_ENV_FILE`, names.
    static func file(_ flag: String?) throws -> String? {
        try Setting.value(flag, named: OptionNames.envFile)
    }

    /// The variables `run` substitutes: the environment, and the env file if one is named.
    var forRunning: ManifestVariables {
        get throws { try ManifestVariables.environment(envFile: try file) }
    }

    /// The variables a command that runs nothing checks: with `--env-file`, the environment and the
    /// file (so every unset variable is reported); without it, none (only the syntax is checked).
    var forChecking: ManifestVariables? {
        get throws { try file.map { try ManifestVariables.environment(envFile: $0) } }
    }
}
