/// One day of timer records: the day and the time recorded on it.
public struct Daily: Codable, Sendable, Equatable {
    /// The day, `YYYY-MM-DD`.
    public var date: String
    /// Seconds recorded on that day.
    public var totalTime: Double

    public init(date: String, totalTime: Double) {
        self.date = date
        self.totalTime = totalTime
    }

    /// Nothing was recorded: what TiTi 2.0 left behind when a timer was started and discarded.
    public var isEmpty: Bool { totalTime == 0 }
}
