import Milepost

/// The GitHub Actions annotation of a failed or interrupted step (`run`/`status --format github`):
/// where a workflow's operators look first, with the step's error and the last lines of its stderr,
/// on the step's line of the manifest (`file=`, `line=`) when the manifest has it.
struct StepAnnotation {
    /// The manifest's path as given, and its steps (where each is written).
    let file: String?
    let steps: [ManifestStep]

    init(manifest file: String?, plan: Plan?) {
        self.file = file
        steps = plan?.entries.map(\.step) ?? []
    }

    func failed(_ id: String, error: String, stderr: String?) -> String {
        annotation(title: "milepost: \(id) failed", id: id, Self.message(error, stderr))
    }

    func interrupted(_ id: String, error: String, stderr: String?) -> String {
        annotation(title: "milepost: \(id) was interrupted", id: id, Self.message(error, stderr))
    }

    /// A step a run stops before until it is approved (`requires: approval`), at its manifest line.
    static func awaitingApproval(_ step: ManifestStep, file: String, hint: CommandHint) -> String {
        DiagnosticRenderer.githubAnnotation(
            .warning, title: "milepost: \(step.id) awaits approval", file: file, line: step.location.line,
            "\(step.id) requires approval: a run stops before it until `\(hint.milepost("approve", step.id, "--by", "NAME"))`")
    }

    /// A step that ran with an approval: who approved it, and when.
    static func approved(_ approval: StepApprovals.Approval) -> String {
        DiagnosticRenderer.githubAnnotation(
            .notice, title: "milepost: \(approval.step) approved",
            "approved by \(approval.by) at \(approval.at)" + (approval.plan.map { " for the reviewed plan \($0)" } ?? ""))
    }

    /// What an interrupted step's annotation says: who was running it, and where it resumes.
    static func blocking(_ step: InProgressStep) -> String {
        "its run stopped mid-step (pid \(step.pid) on \(step.host) since \(step.since))"
            + (step.cursor.map { "; its last cursor is \($0)" } ?? "")
    }

    private func annotation(title: String, id: String, _ message: String) -> String {
        DiagnosticRenderer.githubError(title: title, file: file, line: steps.first { $0.id == id }?.location.line, message)
    }

    private static func message(_ error: String, _ stderr: String?) -> String {
        stderr.map { "\(error)\nstderr:\n\($0)" } ?? error
    }
}
