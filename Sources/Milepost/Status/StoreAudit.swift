/// What a manifest and a store's history say about each other, as located findings: late steps
/// (`LatePolicy`), drift (a completed step edited since it ran) and orphans (a completed step the
/// manifest no longer has). `validate --store` prints them; `run` prints the late ones.
public enum StoreAudit {
    /// The finding for a late entry of a plan (nil when the entry is not late): an error under
    /// `late: fail`, a warning otherwise.
    public static func late(_ entry: Plan.Entry, from: Version, file: String) -> Diagnostic? {
        guard let policy = entry.late else { return nil }
        let note: String = switch policy {
        case .warn: "to run it on this store, give it 'late: run'; or move it under a threshold above \(from)"
        case .run: "it runs on the next run, before the steps above \(from)"
        case .fail: "remove it, move it under a threshold above \(from), or give it 'late: run' or 'late: warn'"
        }
        return Diagnostic(
            policy == .fail ? .error : .warning, "late step \(entry.step.id): \(entry.reason)", file: file,
            at: entry.step.location, notes: [.init(note)])
    }

    /// Every finding of `report` (made with a manifest) for `manifest`: late steps, completed steps
    /// whose scope changed, drift, orphans, steps of a newer release, in that order.
    public static func findings(_ report: StatusReport, manifest: Manifest) -> [Diagnostic] {
        let file = manifest.source.path
        var findings = (report.plan?.entries ?? []).compactMap { late($0, from: report.plan?.from ?? .zero, file: file) }
        findings += report.plan?.scopeMoveErrors(file: file) ?? []
        // Looked up once, not by a search of the steps per drifted step.
        let locations = Dictionary(manifest.steps.map { ($0.id, $0.location) }, uniquingKeysWith: { first, _ in first })
        for drift in report.drift {
            findings.append(Diagnostic(
                .warning, "\(drift.id) changed after it ran on this store at \(drift.ranAt); it will not run again",
                file: file, at: locations[drift.id],
                notes: [.init("to apply a change, add a new step under a threshold above \(report.state?.version.text ?? "the stored version")")]))
        }
        for orphan in report.orphans {
            findings.append(Diagnostic(
                .warning, "\(orphan.id) completed on this store at \(orphan.at) but is no longer in the manifest",
                file: file, at: nil,
                notes: [.init("if a step was renamed from it, give that step 'replaces: \(orphan.id)' so its history carries over")]))
        }
        if !report.newer.isEmpty {
            findings.append(Diagnostic(
                .warning, "this store ran a newer release than this manifest: \(counted(report.newer.count, "step")) of it "
                    + "completed here (\(report.newer.map(\.id).joined(separator: ", ")))",
                file: file, at: nil,
                notes: [.init("not orphans: this manifest predates them, so no 'replaces:' is needed")]))
        }
        return findings
    }
}
