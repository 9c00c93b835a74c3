/// One thing `status` advises, most urgent first: a command to type and when to type it, or a note
/// in words. People read `text`; `--format json` gives the parts (`command` as its arguments), so
/// a script runs the command without parsing prose.
struct NextStep: Encodable, Equatable {
    /// The command as its arguments (`milepost` first, with the `--store`/`--manifest` given:
    /// `CommandHint.arguments`); nil for a note.
    var command: [String]?
    /// When, or why, to type `command`; nil when it needs no words.
    var when: String?
    /// Advice in words, for an item without a command.
    var note: String?

    /// Type `arguments` (`when`, if given, says when).
    static func command(_ arguments: [String], when: String? = nil) -> NextStep {
        NextStep(command: arguments, when: when, note: nil)
    }

    /// Advice that is no command.
    static func note(_ text: String) -> NextStep {
        NextStep(command: nil, when: nil, note: text)
    }

    /// The line for people: the command quoted for a shell, in backticks, then when; or the note.
    var text: String {
        guard let command else { return note ?? "" }
        return "`\(command.map(CommandHint.quoted).joined(separator: " "))`" + (when.map { "  \($0)" } ?? "")
    }
}
