import Milepost

/// `milepost history` for humans: a table of journal records.
enum HistoryText {
    static func render(_ records: [JournalRecord]) -> String {
        guard !records.isEmpty else { return "no runs recorded" }
        var rows: [[String]] = []
        for record in records {
            rows.append(row(record))
            // The step's stderr tail under its record, one line per line, in the RESULT column.
            for line in record.stderr?.split(separator: "\n", omittingEmptySubsequences: false) ?? [] {
                rows.append(["", "", "", "", "", "", "| " + String(line).escapingControlCharacters()])
            }
        }
        let header = ["TIME", "RUN", "EVENT", "STEP", "TRY", "DURATION", "RESULT"]
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        return ([header] + rows).map { row in
            row.indices.map { row[$0].padding(widths[$0]) }.joined(separator: "  ").trimmingTrailingSpaces()
        }.joined(separator: "\n")
    }

    private static func row(_ record: JournalRecord) -> [String] {
        let range = record.from.map { from in record.to.map { "\(from) → \($0)" } ?? "from \(from)" } ?? record.to.map { "to \($0)" }
        let result = record.outcome.map { outcome in record.error.map { "\(outcome.rawValue): \($0)" } ?? outcome.rawValue } ?? record.error
        let takeover = record.previousRun.map { "took the lock over: the lease of run \($0) had expired" }
        let cursor = record.cursor.map { record.event == .resolved ? "keeps cursor \($0)" : "at cursor \($0)" }
        let progress = record.completed.map { done in
            (record.total.map { "\(done)/\($0)" } ?? "\(done)") + (record.message.map { ": \($0)" } ?? "")
        }
        let approval = record.by.map { "approved by \($0)" }
        let plan = record.plan.map { "plan \($0)" }
        let detail = [range, result, takeover, cursor, progress, approval, plan].compactMap { $0 }.joined(separator: " ")
        return [
            record.time.text, record.run, record.event.rawValue, record.step ?? "",
            record.attempt.map { "#\($0)" } ?? "", record.durationMs.map { Elapsed.text(milliseconds: $0) } ?? "", detail,
        ].map { $0.escapingControlCharacters() }
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
