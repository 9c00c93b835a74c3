import ArgumentParser
import Logging
import Milepost
import MilepostSystem
import Synchronization

/// What `milepost run` tells a service manager while it runs under one (systemd's `NOTIFY_SOCKET`,
/// docs/reliability.md): `EXTEND_TIMEOUT_USEC` and the running step's `STATUS` when a step starts
/// and every `interval` while it runs, its `STATUS` as it reports progress, and a last `STATUS`
/// when the run ends. Nothing at all without `NOTIFY_SOCKET`.
///
/// The extension is three intervals (30 s for the default 10 s): a unit's `TimeoutStartSec=` kills
/// the run no sooner than 30 s after milepost last said it was alive, and two messages in a row may
/// be late or lost (a loaded host, a busy manager) before that. A step that hangs is ended by its
/// own `timeout:`, as without a supervisor. A message that cannot be sent is logged once, at
/// debug, and never fails the run.
final class ServiceManagerStatus: Sendable {
    /// Sets the interval, as a duration (`200ms`); for tests, which cannot wait 10 s. Not a flag:
    /// the interval is no setting of a unit's, the extension follows it.
    static let intervalVariable = "MILEPOST_NOTIFY_INTERVAL"
    /// How often a running step's `EXTEND_TIMEOUT_USEC` is sent (the heartbeat of `RunProgressPrinter` too).
    static let defaultInterval: Duration = .seconds(10)
    /// The intervals it takes: messages no more often than every 10 ms, and an extension of three
    /// intervals that `EXTEND_TIMEOUT_USEC` counts in microseconds, a 64-bit number.
    static let intervalBounds = DurationBounds(
        minimum: .milliseconds(10), maximum: .seconds(30_000 * 86_400),
        limit: "the extension asked for (EXTEND_TIMEOUT_USEC, three intervals) is a 64-bit count of microseconds")
    /// The longest `STATUS` text sent, in characters: systemd shows it on one line of `systemctl status`.
    static let statusLength = 200

    private struct Running {
        var id: String
        var index: Int
        var total: Int
        var attempt: Int
        var started: ContinuousClock.Instant
        var progress: StepProgress?
    }

    private struct State {
        var running: Running?
        var lastStatus: ContinuousClock.Instant?
        var finished = false
        var failureLogged = false
        var ticker: Task<Void, Never>?
    }

    private let notifier: ServiceManagerNotifier
    let interval: Duration
    private let logger: Logger
    private let state = Mutex(State())

    /// The extension each `EXTEND_TIMEOUT_USEC` asks for.
    var extensionTime: Duration { interval * 3 }

    private init(notifier: ServiceManagerNotifier, interval: Duration, logger: Logger) {
        self.notifier = notifier
        self.interval = interval
        self.logger = logger
    }

    /// Starts telling the service manager of `NOTIFY_SOCKET`, and makes `handler` (a run's
    /// `RunOptions.onProgress`) report to it first; nil, and `handler` unchanged, without
    /// `NOTIFY_SOCKET` or when its socket cannot be made (logged at debug). Call `finish` when the run ends.
    /// - throws: `ValidationError` (exit 64) for a `MILEPOST_NOTIFY_INTERVAL` that is no duration in
    ///   `intervalBounds`, before the run starts.
    static func start(forwarding handler: inout (@Sendable (RunProgress) -> Void)?, logger: Logger) throws -> ServiceManagerStatus? {
        let notifier: ServiceManagerNotifier
        do {
            guard let made = try ServiceManagerNotifier.fromEnvironment() else { return nil }
            notifier = made
        } catch {
            logger.debug("not notifying the service manager: \(error)")
            return nil
        }
        let interval = try ProcessEnvironment.value(intervalVariable).map { text in
            do {
                return try DurationText.read(text, within: intervalBounds)
            } catch {
                throw ValidationError("\(intervalVariable)=\(text.escapingControlCharacters()): \(error)")
            }
        }
        let status = ServiceManagerStatus(notifier: notifier, interval: interval ?? defaultInterval, logger: logger)
        let next = handler
        handler = { progress in
            status.handle(progress)
            next?(progress)
        }
        let ticker = Task { await status.tick() }
        status.state.withLock { $0.ticker = ticker }
        return status
    }

    func handle(_ progress: RunProgress) {
        let now = ContinuousClock.now
        state.withLock { state in
            switch progress {
            case .stepStarted(let id, let index, let total, let attempt):
                let running = Running(id: id, index: index, total: total, attempt: attempt, started: now)
                state.running = running
                send([extending, ("STATUS", Self.status(running, now: now))], &state, now: now)
            case .stepProgress(_, let report):
                guard var running = state.running else { return }
                running.progress = report
                state.running = running
                // Reports may come many times a second; the manager needs no more than one a second.
                if let last = state.lastStatus, now - last < .seconds(1) { return }
                send([("STATUS", Self.status(running, now: now))], &state, now: now)
            case .stepFinished(let result, let index, let total):
                state.running = nil
                send([("STATUS", "step \(result.id) \(result.status.rawValue) (\(index) of \(total))")], &state, now: now)
            case .hookFinished(let result, _):
                send([("STATUS", "hook \(result.id) \(result.status.rawValue)")], &state, now: now)
            }
        }
    }

    /// The run ended with `outcome`: its last `STATUS`, and no more messages.
    func finish(_ outcome: Result<(RunReport, Int32?), any Error>) {
        state.withLock { state in
            state.ticker?.cancel()
            state.running = nil
            send([("STATUS", Self.ended(outcome))], &state, now: .now)
            state.finished = true
        }
    }

    /// Until cancelled: every `interval`, the running step's extension and status.
    private func tick() async {
        while (try? await Task.sleep(for: interval)) != nil {
            let now = ContinuousClock.now
            state.withLock { state in
                guard let running = state.running else { return }
                send([extending, ("STATUS", Self.status(running, now: now))], &state, now: now)
            }
        }
    }

    private var extending: (name: String, value: String) {
        ("EXTEND_TIMEOUT_USEC", String(DurationText.milliseconds(extensionTime) * 1000))
    }

    /// Sends under the lock, so that messages reach the manager in the order of the events.
    private func send(_ assignments: [(name: String, value: String)], _ state: inout State, now: ContinuousClock.Instant) {
        guard !state.finished else { return }
        let capped = assignments.map { ($0.name, $0.name == "STATUS" ? "milepost: " + String($0.value.prefix(Self.statusLength)) : $0.value) }
        if assignments.contains(where: { $0.name == "STATUS" }) { state.lastStatus = now }
        do {
            try notifier.send(capped)
        } catch {
            guard !state.failureLogged else { return }
            state.failureLogged = true
            logger.debug("cannot notify the service manager at \(PathText.readable(notifier.address)) (further failures are not logged): \(error)")
        }
    }

    /// `running 2.7/reindex (step 2 of 5, attempt 1, 12.0 s): 4200/10000 (42%), 350/s, ETA 16.5 s`.
    private static func status(_ running: Running, now: ContinuousClock.Instant) -> String {
        let elapsed = Elapsed.text(milliseconds: DurationText.milliseconds(now - running.started))
        return "running \(running.id) (step \(running.index) of \(running.total), attempt \(running.attempt), \(elapsed))"
            + (running.progress.map { ": " + ProgressText.summary($0) } ?? "")
    }

    /// The run's last words: `2.1 → 2.7: 2 steps ran`, `up to date at 2.7`, `step 2.7/reindex failed, …`.
    private static func ended(_ outcome: Result<(RunReport, Int32?), any Error>) -> String {
        let report: RunReport
        switch outcome {
        case .success(let (ended, _)): report = ended
        case .failure(let error): return "run failed: \(String(describing: error).escapingControlCharacters())"
        }
        return switch report.outcome {
        case .succeeded: "\(report.from) → \(report.to): \(counted(report.steps.count, "step")) ran"
        case .upToDate: "up to date at \(report.to)"
        case .failed: "\(report.steps.last.map { "step \($0.id)" } ?? "a hook") failed; the stored version stays \(report.from)"
        case .interrupted: "interrupted; the stored version stays \(report.from)"
        default: "run ended: \(report.outcome.rawValue) (\(report.from) → \(report.to))"
        }
    }
}
