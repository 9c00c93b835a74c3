/// A line an `exec` step writes to the descriptor named by `MILEPOST_CONTROL_FD`.
enum ExecControlLine: Equatable {
    /// `cursor TEXT`: commit TEXT (everything after the first space) as the step's cursor.
    case cursor(String)
    /// A line this version does not understand; ignored with a warning.
    case unknown(String)

    init(_ line: String) {
        if line.hasPrefix("cursor ") {
            self = .cursor(String(line.dropFirst("cursor ".count)))
        } else {
            self = .unknown(line)
        }
    }
}
