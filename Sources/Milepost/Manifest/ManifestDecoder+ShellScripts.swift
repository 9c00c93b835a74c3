import MilepostYAML

// A declared variable substituted into the text of a shell script (`[sh, -c, 'deploy --region
// ${REGION}']`): its value is parsed as shell code, so `eu-west-1; rm -rf /` runs a command.
extension ManifestDecoder {
    /// The shells whose `-c` option takes the script as the next argument that is not an option.
    static let shells: Set<Substring> = ["sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "yash", "posh"]

    /// A warning at each declared variable that `parameters` (a step's `with:` or `revert:`)
    /// substitutes into the script of a `command: [sh, -c, SCRIPT, …]`, among the uses recorded since
    /// `mark`, showing the safe form: the value passed as an argument after the script, which the
    /// script reads as `"$1"`. `validate --strict` fails on it.
    mutating func warnAboutVariablesInShellScripts(of name: String, in parameters: [YAMLNode?], since mark: Int) {
        let declared = uses.uses(since: mark).filter { $0.name != nil }
        guard !declared.isEmpty else { return }
        for case let script? in parameters.map({ $0.flatMap(Self.shellScript) }) {
            for use in declared where use.location == script.node.location {
                warning(
                    "step '\(name)': \(use.written) is substituted into the text of the '\(script.shell) -c' script, where its "
                        + "value runs as shell code (a ';' or '$(…)' in it runs a command); pass it as an argument after "
                        + "the script and read it there quoted: [\(script.shell), -c, '… \"$1\" …', \(script.shell), '\(use.written)']",
                    at: use.location)
            }
        }
    }

    /// The script of `parameters`' `command` when it runs a shell with `-c` (alone or in a cluster:
    /// `-c`, `-ec`; among other options: `-o pipefail`, `--norc`), and the shell's name; nil otherwise.
    static func shellScript(in parameters: YAMLNode) -> (node: YAMLNode, shell: Substring)? {
        guard let command = parameters["command"]?.elements, let program = command.first?.scalar,
              let shell = program.split(separator: "/").last, shells.contains(shell)
        else { return nil }
        var takesScript = false
        var arguments = command.dropFirst().makeIterator()
        while let argument = arguments.next() {
            guard let text = argument.scalar else { return nil }
            if text == "-o" || text == "+o" {
                _ = arguments.next()  // The option's name.
            } else if text.hasPrefix("-") || text.hasPrefix("+"), text.count > 1 {
                takesScript = takesScript || (!text.hasPrefix("--") && text.contains("c"))
            } else {
                return takesScript ? (argument, shell) : nil
            }
        }
        return nil
    }
}
