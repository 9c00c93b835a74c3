import FoundationEssentials
import Glibc
import MilepostSystem

/// Where human output goes, and whether it may be colored (a TTY, and no `NO_COLOR`). Output that
/// cannot be written (a closed stream, a reader that left) is dropped; see `StandardStream`.
///
/// No line written here can be a GitHub Actions workflow command (see `neutralizingWorkflowCommands`);
/// untrusted values are escaped where they are put into lines (`escapingControlCharacters`).
enum Terminal {
    static func out(_ text: String) {
        StandardStream.output.write(text.neutralizingWorkflowCommands() + "\n")
    }

    /// Writes `text` and a newline on stderr; `isError`: it reports an error (`level` `error` under
    /// `--log-format json`).
    static func err(_ text: String, isError: Bool = false) {
        StandardStream.error.write(text.neutralizingWorkflowCommands() + "\n", isError: isError)
    }

    /// Writes `text` on stderr without a newline (a line that will be rewritten).
    static func errPartial(_ text: String) {
        StandardStream.error.write(text.neutralizingWorkflowCommands())
    }

    /// Writes one workflow command on stdout (`validate --format github`): the only output that may
    /// start with `::`. Its data and properties must be escaped already.
    static func workflowCommand(_ line: String) {
        StandardStream.output.write(line + "\n")
    }

    /// Returns the cursor to the start of the line and clears it.
    static let clearLine = "\r\u{1B}[K"

    /// Stderr is a terminal that shows text as written: not under `--log-format json`, where each line
    /// is a JSON object (no colours, no rewritten lines).
    static var stderrIsTTY: Bool { isatty(2) == 1 && !StandardStream.errorIsFramed }
    static let stdoutIsTTY = isatty(1) == 1

    enum Style: String {
        case bold = "1", red = "1;31", yellow = "1;33", green = "32", dim = "2", cyan = "36"
    }

    /// `text` in `style` when `colored`, else plain.
    static func paint(_ text: String, _ style: Style, colored: Bool) -> String {
        colored && ProcessEnvironment.value("NO_COLOR").map(\.isEmpty) ?? true
            ? "\u{1B}[\(style.rawValue)m\(text)\u{1B}[0m" : text
    }
}
