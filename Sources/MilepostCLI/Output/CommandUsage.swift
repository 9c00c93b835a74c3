import ArgumentParser
import Glibc
import Milepost
import MilepostSystem

/// Usage errors, worded as ArgumentParser words its own (`MilepostCommand._errorPrefix`), for what
/// it cannot see: a command name that is not one, and a refusal a command makes after parsing,
/// which gets that command's usage rather than the root's.
enum CommandUsage {
    /// A first argument that names no command: refused with the nearest command's name, as a
    /// manifest's unknown step name is.
    static func checkCommand(in arguments: [String]) throws {
        guard let first = arguments.first, !first.hasPrefix("-"), first != "help" else { return }
        let names = MilepostCommand.configuration.subcommands.map { $0._commandName }
        guard !names.contains(first) else { return }
        let suggestion = NameSuggestion.closest(to: first, among: names).map { "; did you mean '\($0)'?" } ?? ""
        throw ValidationError("unknown command '\(first.escapingControlCharacters())'\(suggestion)")
    }

    /// Prints `error`, which `command` threw after its arguments were parsed, with the command's
    /// own usage, and exits 64.
    static func refuse(_ error: ValidationError, by command: any ParsableCommand.Type) -> Never {
        let name = command._commandName
        Terminal.err(
            MilepostCommand._errorPrefix + error.message + "\nUsage: " + MilepostCommand.usageString(for: command)
                + "\n  See '\(MilepostCommand._commandName) \(name) --help' for more information.",
            isError: true)
        exit(ExitStatus.usage.rawValue)
    }
}
