import ArgumentParser

/// `milepost --help` (also `milepost help`, and `milepost` alone): the usage and the commands first,
/// then the overview, exit codes and environment of the root command's discussion, which
/// ArgumentParser would print before them (the man page keeps its own order).
enum RootHelp {
    /// The width the help is wrapped to, as ArgumentParser wraps it without a terminal.
    static let columns = 80
    /// Where a command's or option's description starts, as in ArgumentParser's help.
    static let labelWidth = 24

    /// Whether `arguments` ask for the root command's help.
    static func isRequested(_ arguments: [String]) -> Bool {
        arguments.isEmpty || [["--help"], ["-h"], ["help"]].contains(arguments)
    }

    static var text: String {
        let root = MilepostCommand.configuration
        var lines = ["USAGE: \(root.commandName ?? "milepost") <command> [<options>]", "", "COMMANDS:"]
        for command in root.subcommands {
            lines += entry(command._commandName, command.configuration.abstract)
        }
        lines += ["", "  See '\(root.commandName ?? "milepost") <command> --help' for its options and examples.", "", "OPTIONS:"]
        lines += entry("--version", "Show the version.") + entry("-h, --help", "Show help information.")
        lines += ["", "OVERVIEW: \(root.abstract)"]
        for paragraph in root.discussion.split(separator: "\n\n", omittingEmptySubsequences: true) {
            lines += [""] + paragraph.split(separator: "\n").flatMap { wrapped(String($0), indent: 0) }
        }
        return lines.joined(separator: "\n")
    }

    /// `  label      description`, the description wrapped beside the label column.
    private static func entry(_ label: String, _ description: String) -> [String] {
        let indent = labelWidth + 2
        var text = wrapped(description, indent: indent)
        let head = "  " + label
        if head.count < indent - 1 {
            text[0] = head.padding(indent) + text[0].dropFirst(indent)
        } else {
            text.insert(head, at: 0)
        }
        return text
    }

    /// `text` in lines of at most `columns`, each after `indent` spaces, broken between words.
    private static func wrapped(_ text: String, indent: Int) -> [String] {
        let margin = String(repeating: " ", count: indent)
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty, indent + line.count + 1 + word.count > columns {
                lines.append(margin + line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        return lines + [margin + line]
    }
}
