import ArgumentParser
import FoundationEssentials
import MilepostSystem

/// A `milepost …` command line to suggest, carrying the `--store` and `--manifest` the user gave so
/// that it works when pasted as printed: each only when the suggested command accepts it (read from
/// that command's own ArgumentParser definition), the store never with a password (`URLPassword`).
/// A command that takes no `--manifest` gets the store the user's `--manifest` implies
/// (`.milepost` beside it) as `--store` instead. Settings from the environment (`MILEPOST_STORE`,
/// `MILEPOST_MANIFEST`) are left out: the pasted command inherits them.
struct CommandHint {
    /// The `--store` the user gave.
    var store: String?
    /// The `--manifest` the user gave.
    var manifest: String?
    /// The `--host-store` the user gave.
    var hostStore: String? = nil

    /// `milepost command arguments… [--store S] [--manifest M] [--host-store H]`, each word quoted for a shell.
    func milepost(_ command: String, _ arguments: String...) -> String {
        milepost(command, arguments: arguments)
    }

    /// `milepost(_:_:)` with the arguments in an array.
    func milepost(_ command: String, arguments: [String]) -> String {
        self.arguments(command, arguments).map(Self.quoted).joined(separator: " ")
    }

    /// The command line of `milepost(_:_:)` as its arguments, unquoted: `["milepost", command, …]`.
    func arguments(_ command: String, _ arguments: String...) -> [String] {
        self.arguments(command, arguments)
    }

    /// `arguments(_:_:)` with the arguments in an array.
    func arguments(_ command: String, _ arguments: [String]) -> [String] {
        let accepted = Self.longOptions(of: command)
        var flags: [String] = []
        if accepted.contains(OptionNames.store),
           let store = store ?? manifest.flatMap({ accepted.contains(OptionNames.manifest) ? nil : StoreOptions.defaultSpec(manifest: $0) }) {
            flags += ["--\(OptionNames.store)", URLPassword.removed(from: store)]
        }
        if accepted.contains(OptionNames.manifest), let manifest { flags += ["--\(OptionNames.manifest)", manifest] }
        if accepted.contains(OptionNames.hostStore), let hostStore { flags += ["--\(OptionNames.hostStore)", hostStore] }
        return ["milepost", command] + arguments + flags
    }

    /// The long option names `milepost command` accepts, from its ArgumentParser definition.
    static func longOptions(of command: String) -> Set<String> {
        guard let type = MilepostCommand.configuration.subcommands.first(where: { $0._commandName == command }),
              let info = try? JSONDecoder().decode(ToolInfo.self, from: Data(type._dumpHelp().utf8))
        else { return [] }
        return Set((info.command.arguments ?? []).flatMap { $0.names ?? [] }.filter { $0.kind == "long" }.map(\.name))
    }

    /// The part of ArgumentParser's `--experimental-dump-help` document read here.
    private struct ToolInfo: Decodable {
        struct Command: Decodable { var arguments: [Argument]? }
        struct Argument: Decodable { var names: [Name]? }
        struct Name: Decodable { var kind: String; var name: String }
        var command: Command
    }

    /// `text` as one shell word.
    static func quoted(_ text: String) -> String {
        let plain = !text.isEmpty && text.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil || "-_./:=@%+,".unicodeScalars.contains($0))
        }
        return plain ? text : "'" + text.replacing(scalar: "'", with: #"'\''"#) + "'"
    }
}
