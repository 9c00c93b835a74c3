import Milepost
import MilepostSystem

/// How long a step is expected to take, for people: `1.2 s median, 3.4 s p95, 5.0 s max (12 runs)`,
/// `no history`, with its `expected:` and the runs of its earlier entry beside them.
enum EstimateText {
    static func line(_ estimate: StepEstimate) -> String {
        var parts = [estimate.history.map(statistics) ?? "no history"]
        if let expected = estimate.expected { parts.append("expected: \(DurationText.readable(expected))") }
        if let edited = estimate.editedHistory { parts.append("before its entry was edited: \(statistics(edited))") }
        return parts.joined(separator: "; ")
    }

    static func statistics(_ statistics: DurationStatistics) -> String {
        "\(DurationText.readable(statistics.median)) median, \(DurationText.readable(statistics.p95)) p95, "
            + "\(DurationText.readable(statistics.max)) max (\(counted(statistics.runs, "run")))"
    }
}
