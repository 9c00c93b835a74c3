import Logging
import MilepostSystem

// The step loop a run and a revert share: each step applied through the attempt loop, in order,
// until one does not succeed or a signal stops the list.
extension Runner {
    /// How a list of steps (or hooks) ended.
    enum StepsEnd {
        /// Every step succeeded.
        case finished
        /// A step failed, and no signal stopped the run: its result.
        case failed(RunReport.StepResult)
        /// A signal stopped the run: in the step it stopped (whose back-off it may have cut
        /// short), or between two steps (nil).
        case interrupted(RunReport.StepResult?)
        /// The next step no longer fit the run's deadline (`RunContext.deadline`): not started.
        case deadlineRefused(DeadlineRefusal)

        /// How a run ends at `result`, a step or hook that did not succeed: failed, unless a signal
        /// stopped it (in its attempt or its back-off).
        init(stoppedAt result: RunReport.StepResult) {
            self = result.status == .failed && !Task.isCancelled ? .failed(result) : .interrupted(result)
        }
    }

    /// Applies `steps` in order (their bodies, or with `direction` `.revert` their reverts), each
    /// reported through `options.onProgress` when it ends; stops at the first that does not
    /// succeed, or before the next step once a signal came or the step no longer fits the run's
    /// deadline. `state` is the state as last committed.
    /// `numbering` places the list in a longer one, for progress (`Step 3/7`): the number of its
    /// first step and the total; nil when the list is the whole.
    func applySteps(
        _ steps: [ManifestStep], direction: StepDirection, state: inout StoredState, in context: RunContext,
        numbering: (first: Int, total: Int)? = nil
    ) async throws -> (results: [RunReport.StepResult], end: StepsEnd) {
        var results: [RunReport.StepResult] = []
        let (first, total) = numbering ?? (1, steps.count)
        for (offset, step) in steps.enumerated() {
            guard !Task.isCancelled else { return (results, .interrupted(nil)) }
            if let refusal = context.deadline?.refusal(of: step) { return (results, .deadlineRefused(refusal)) }
            let result = try await apply(
                step, direction: direction, position: (first + offset, total), state: &state, in: context)
            results.append(result)
            options.onProgress?(.stepFinished(result, index: first + offset, total: total))
            guard result.status == .succeeded else { return (results, StepsEnd(stoppedAt: result)) }
        }
        return (results, .finished)
    }

    /// Applies one step (or its revert) through the attempt loop, its `StepCheckpoint` owning the
    /// state meanwhile; an attempt of a step's body resumes at its last durable cursor.
    private func apply(
        _ step: ManifestStep, direction: StepDirection, position: (index: Int, total: Int), state: inout StoredState,
        in context: RunContext
    ) async throws -> RunReport.StepResult {
        if direction == .forward, let mark = state.interruptedMark(of: step.id) {
            if let cursor = mark.cursor, step.resumable {
                logger.warning("resuming interrupted step at its cursor", metadata: ["step": "\(step.id)", "cursor": "\(cursor)"])
            } else if step.idempotent {
                logger.warning("re-running interrupted idempotent step", metadata: ["step": "\(step.id)"])
            } else {
                logger.warning(
                    "re-running an interrupted step that is neither idempotent nor resumable (interruptedSteps: retry)",
                    metadata: ["step": "\(step.id)", "cursor": "\(mark.cursor ?? "")"])
            }
        }
        let checkpoint = StepCheckpoint(
            step: step, store: context.locked, journal: context.journal, points: context.points,
            transaction: direction == .forward ? checkpointTransaction(for: step, on: context.locked) : nil,
            state: state, direction: direction)
        do {
            let result = try await attempts(of: step, direction: direction, position: position, record: checkpoint, in: context)
            state = await checkpoint.state
            return result
        } catch {
            state = await checkpoint.state
            throw error
        }
    }
}
