/// A line an `exec` step writes to the descriptor named by `MILEPOST_CONTROL_FD`.
package enum ExecControlLine: Equatable {
    /// `cursor TEXT`: commit TEXT (everything after the first space) as the step's cursor.
    case cursor(String)
    /// `progress DONE/TOTAL [MESSAGE]`: report progress (whole numbers, DONE ≥ 0, TOTAL > 0).
    case progress(completed: Int, total: Int, message: String?)
    /// A line this version does not understand; ignored with a warning.
    case unknown(String)

    package init(_ line: String) {
        if line.hasPrefix("cursor ") {
            self = .cursor(String(line.dropFirst("cursor ".count)))
        } else if line.hasPrefix("progress "), let progress = Self.progress(line.dropFirst("progress ".count)) {
            self = progress
        } else {
            self = .unknown(line)
        }
    }

    private static func progress(_ text: Substring) -> ExecControlLine? {
        let parts = text.split(separator: " ", maxSplits: 1)
        let counts = parts.first?.split(separator: "/", omittingEmptySubsequences: false) ?? []
        guard counts.count == 2, let completed = Int(counts[0]), let total = Int(counts[1]), completed >= 0, total > 0
        else { return nil }
        return .progress(completed: completed, total: total, message: parts.count > 1 ? String(parts[1]) : nil)
    }
}
