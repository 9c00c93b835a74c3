import Foundation

/// Where human output goes, and whether it may be colored (a TTY, and no `NO_COLOR`).
///
/// No line written here can be a GitHub Actions workflow command (see `neutralizingWorkflowCommands`);
/// untrusted values are escaped where they are put into lines (`escapingControlCharacters`).
enum Terminal {
    static func out(_ text: String) {
        FileHandle.standardOutput.write(Data((text.neutralizingWorkflowCommands() + "\n").utf8))
    }

    static func err(_ text: String) {
        FileHandle.standardError.write(Data((text.neutralizingWorkflowCommands() + "\n").utf8))
    }

    /// Writes `text` on stderr without a newline (a line that will be rewritten).
    static func errPartial(_ text: String) {
        FileHandle.standardError.write(Data(text.neutralizingWorkflowCommands().utf8))
    }

    /// Writes one workflow command on stdout (`validate --format github`): the only output that may
    /// start with `::`. Its data and properties must be escaped already.
    static func workflowCommand(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// Returns the cursor to the start of the line and clears it.
    static let clearLine = "\r\u{1B}[K"

    static let stderrIsTTY = isatty(2) == 1
    static let stdoutIsTTY = isatty(1) == 1

    enum Style: String {
        case bold = "1", red = "1;31", yellow = "1;33", green = "32", dim = "2", cyan = "36"
    }

    /// `text` in `style` when `colored`, else plain.
    static func paint(_ text: String, _ style: Style, colored: Bool) -> String {
        colored && ProcessInfo.processInfo.environment["NO_COLOR"].map(\.isEmpty) ?? true
            ? "\u{1B}[\(style.rawValue)m\(text)\u{1B}[0m" : text
    }
}
