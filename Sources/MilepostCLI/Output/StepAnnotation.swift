import Milepost

/// The GitHub Actions annotation of a failed or interrupted step (`run`/`status --format github`):
/// where a workflow's operators look first, with the step's error and the last lines of its stderr.
enum StepAnnotation {
    static func failed(_ id: String, error: String, stderr: String?) -> String {
        DiagnosticRenderer.githubError(title: "milepost: \(id) failed", message(error, stderr))
    }

    static func interrupted(_ id: String, error: String, stderr: String?) -> String {
        DiagnosticRenderer.githubError(title: "milepost: \(id) was interrupted", message(error, stderr))
    }

    /// What an interrupted step's annotation says: who was running it, and where it resumes.
    static func blocking(_ step: InProgressStep) -> String {
        "its run stopped mid-step (pid \(step.pid) on \(step.host) since \(step.since))"
            + (step.cursor.map { "; its last cursor is \($0)" } ?? "")
    }

    private static func message(_ error: String, _ stderr: String?) -> String {
        stderr.map { "\(error)\nstderr:\n\($0)" } ?? error
    }
}
