/// When a failed step gets another attempt, and how long the runner pauses before it.
struct RetryPolicy {
    /// Extra attempts after the first (`retries:`).
    var retries: Int
    /// The pause before the first retry; doubled for each further one (capped at 2¹⁰ times).
    var delay: Duration

    /// True when a step whose attempt number `attempt` failed may run again.
    func allowsAttempt(after attempt: Int) -> Bool { attempt <= retries }

    /// The pause after the failed attempt number `attempt`.
    func pause(after attempt: Int) -> Duration { delay * (1 << min(attempt - 1, 10)) }
}
