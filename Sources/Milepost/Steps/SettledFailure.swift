/// A step's failure that was settled before any stop request reached it, such as the status an
/// `exec` child exited with: like a success, it stands when the attempt is stopped afterwards
/// (`StepExecution`), so a step that failed on its own is recorded failed, never interrupted.
protocol SettledFailure: Error {}
