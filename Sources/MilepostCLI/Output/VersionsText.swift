import Milepost

/// `milepost versions` for humans: a table of the versions reached, then the summary.
enum VersionsText {
    static func render(_ history: VersionHistory) -> String {
        guard let current = history.currentVersion else { return "no version reached" }
        let rows = history.reached.map { [$0.at.text, $0.version, $0.source.rawValue, $0.run ?? ""].map { $0.escapingControlCharacters() } }
        let header = ["TIME", "VERSION", "BY", "RUN"]
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        let table = ([header] + rows).map { row in
            row.indices.map { row[$0].padding(widths[$0]) }.joined(separator: "  ").trimmingTrailingSpaces()
        }
        let summary = [
            "current: \(current)", "previous: \(history.previousVersion ?? "none")",
            "first installed: \(history.firstInstalledVersion ?? current)",
        ].map { $0.escapingControlCharacters() }
        return (table + [""] + summary).joined(separator: "\n")
    }
}
