import Milepost

/// What a run that gave up waiting for another (`StoreBusy`, exit 75) says after the library's
/// message: the other run's progress, and what to do, by the phase of the step it runs.
enum BusyAdvice {
    static func text(_ busy: StoreBusy, hint: CommandHint) -> String {
        let progress = busy.step?.progress.map { "its last report: \(ProgressText.summary($0)) at \($0.at); " } ?? ""
        let longer = "a longer --\(OptionNames.lockTimeout) (\(Setting.variable(OptionNames.lockTimeout))) waits longer"
        let action = switch (busy.wait, busy.holderPhase) {
        case (.backgroundSteps, _):
            "the background runner ('run --\(OptionNames.phase) background') completes them: start it if none runs, "
                + "or give this contract run more time: \(longer)"
        case (.lock, .background?):
            "a background run holds the lock while its step runs, and a run with steps to run waits for it: wait for it "
                + "(\(longer)), or stop the background run (SIGTERM): a resumable step resumes at its cursor when it starts again"
        case (.lock, .contract?):
            "a contract run holds the lock while it runs: wait for it (\(longer))"
        case (.lock, .preStart?):
            "another runner is running the pre-start steps: wait for it (\(longer)); once it finishes, every runner finds them done"
        case (.lock, nil):
            "the holder is between steps, or runs a revert, resolve or baseline: `\(hint.milepost("status"))` shows "
                + "what it does; \(longer)"
        }
        return progress + action
    }
}
