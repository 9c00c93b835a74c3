import Milepost

/// A step's reported progress for people: `30/100 (30%), 12.5/s, ETA 5.6 s: reindexing`, and the
/// bar of a terminal's running line.
enum ProgressText {
    /// Count, percentage, rate and time left when known, then the step's message (escaped). A step
    /// that no longer runs (`live` false: interrupted) has neither a rate nor a time left.
    static func summary(_ progress: StepProgress, live: Bool = true) -> String {
        var parts = [progress.total.map { "\(progress.completed)/\($0)" + percent(progress.completed, of: $0) } ?? "\(progress.completed)"]
        if live, let rate = progress.rate { parts.append("\(rateText(rate))/s") }
        if live, let left = progress.secondsLeft { parts.append("ETA \(Elapsed.text(milliseconds: Int(min(left, 1e9) * 1000)))") }
        return parts.joined(separator: ", ") + (progress.message.map { ": \($0.escapingControlCharacters())" } ?? "")
    }

    /// `[########------------] ` for a known total; empty without one.
    static func bar(_ progress: StepProgress, width: Int = 20) -> String {
        guard let total = progress.total, total > 0 else { return "" }
        let filled = min(width, max(0, progress.completed * width / total))
        return "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled) + "] "
    }

    private static func percent(_ completed: Int, of total: Int) -> String {
        total > 0 ? " (\(min(100, max(0, completed * 100 / total)))%)" : ""
    }

    private static func rateText(_ rate: Double) -> String {
        rate >= 100 ? "\(Int(rate.rounded()))" : "\(Double(Int(rate * 10)) / 10)"
    }
}
