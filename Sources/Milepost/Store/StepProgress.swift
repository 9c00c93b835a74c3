/// How far a running step said it got (`StepContext.reportProgress`, an `exec` step's
/// `progress DONE/TOTAL` lines), as the state keeps it with the step's in-progress mark.
public struct StepProgress: Codable, Sendable, Equatable {
    /// Units done.
    public var completed: Int
    /// Units in all, when the step knows.
    public var total: Int?
    /// What the step is doing, in its own words.
    public var message: String?
    /// When the step reported it: its last heartbeat.
    public var at: Timestamp
    /// Units per second since the attempt's first report; nil until the count moved.
    public var rate: Double?

    public init(completed: Int, total: Int?, message: String?, at: Timestamp, rate: Double?) {
        self.completed = completed
        self.total = total
        self.message = message
        self.at = at
        self.rate = rate
    }

    /// Seconds left at `rate` as of `at`; nil without a total or a rate.
    public var secondsLeft: Double? {
        guard let total, let rate, rate > 0 else { return nil }
        return Double(max(0, total - completed)) / rate
    }
}
