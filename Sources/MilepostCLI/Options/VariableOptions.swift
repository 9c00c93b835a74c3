import ArgumentParser
import Milepost

/// `--env-file`: where `${NAME}` in the manifest's `with:` strings take their values from, under the
/// environment.
struct VariableOptions: ParsableArguments {
    @Option(name: .customLong(OptionNames.envFile), help: ArgumentHelp(
        "A dotenv file (NAME=value lines) of values for ${NAME} in with: strings; the environment wins.",
        valueName: "file"))
    var envFile: String?

    /// The variables `run` substitutes: the environment, and the env file if one is named.
    var forRunning: ManifestVariables {
        get throws { try ManifestVariables.environment(envFile: envFile) }
    }

    /// The variables a command that runs nothing checks: with `--env-file`, the environment and the
    /// file (so every unset variable is reported); without it, none (only the syntax is checked).
    var forChecking: ManifestVariables? {
        get throws { try envFile.map { try ManifestVariables.environment(envFile: $0) } }
    }
}
