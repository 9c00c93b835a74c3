import MilepostSystem
import Synchronization

/// Runs one attempt of a step's body with its timeout, and gives up on a body that ignores
/// cancellation once `grace` (as it is when the attempt is stopped) has passed.
enum StepExecution {
    enum Outcome: Sendable {
        case succeeded
        case failed(any Error)
        case timedOut(Duration)
        /// The runner's own task was cancelled (SIGINT/SIGTERM).
        case cancelled

        /// How a failed or timed-out attempt is worded in the journal, the report and traces; nil otherwise.
        var failure: String? {
            switch self {
            case .succeeded, .cancelled: nil
            case .failed(let error): String(describing: error)
            case .timedOut(let limit): "timed out after \(DurationText.format(limit))"
            }
        }

        /// The error the body threw, for a failed attempt; nil otherwise.
        var thrown: (any Error)? {
            if case .failed(let error) = self { error } else { nil }
        }
    }

    static func run(
        timeout: Duration?, grace: StopGrace, _ body: @escaping @Sendable () async throws -> Void
    ) async -> Outcome {
        let attempt = Attempt(grace: grace)
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                attempt.start(continuation: continuation, timeout: timeout, body)
            }
        } onCancel: {
            attempt.stop(.cancelled)
        }
    }

    /// The shared state of one attempt: the body's task, its timers and the one continuation to resume.
    private final class Attempt: Sendable {
        private struct State {
            var continuation: CheckedContinuation<Outcome, Never>?
            var work: Task<Void, Never>?
            var timers: [Task<Void, Never>] = []
            /// Set once the attempt is being stopped: the outcome it ends with unless the body succeeds.
            var stopReason: Outcome?
        }

        private let state = Mutex(State())
        private let grace: StopGrace

        init(grace: StopGrace) { self.grace = grace }

        func start(
            continuation: CheckedContinuation<Outcome, Never>, timeout: Duration?,
            _ body: @escaping @Sendable () async throws -> Void
        ) {
            let stoppedEarly = state.withLock { current -> Outcome? in
                current.continuation = continuation
                return current.stopReason
            }
            if let stoppedEarly { return finish(stoppedEarly) }
            let work = Task {
                do {
                    try await body()
                    self.finish(.succeeded)
                } catch {
                    self.finish(.failed(error))
                }
            }
            state.withLock { $0.work = work }
            if let timeout {
                let timer = Task {
                    try? await Task.sleep(for: timeout)
                    if !Task.isCancelled { self.stop(.timedOut(timeout)) }
                }
                state.withLock { $0.timers.append(timer) }
            }
            if state.withLock({ $0.stopReason }) != nil { work.cancel() }
        }

        /// Cancels the body, and ends the attempt after the grace period even if the body goes on.
        func stop(_ reason: Outcome) {
            let work = state.withLock { current -> Task<Void, Never>?? in
                guard current.stopReason == nil else { return nil }
                current.stopReason = reason
                return .some(current.work)
            }
            guard let work else { return }
            work?.cancel()
            let deadline = Task {
                try? await Task.sleep(for: grace.duration)
                if !Task.isCancelled { self.finish(reason) }
            }
            state.withLock { $0.timers.append(deadline) }
        }

        private func finish(_ outcome: Outcome) {
            let (continuation, result, timers) = state.withLock { current in
                defer { current.continuation = nil }
                // A body that completes, or fails with a `SettledFailure`, wins over a stop request;
                // anything else ends as the stop reason.
                let result = switch outcome {
                case .succeeded: outcome
                case .failed(let error) where error is any SettledFailure: outcome
                default: current.stopReason ?? outcome
                }
                return (current.continuation, result, current.timers)
            }
            for timer in timers { timer.cancel() }
            continuation?.resume(returning: result)
        }
    }
}
