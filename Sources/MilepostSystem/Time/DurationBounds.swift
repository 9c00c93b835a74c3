/// The durations one consumer can hold: from `minimum` to `maximum`, the longest being what its own
/// representation holds (a server setting in 32-bit milliseconds, a protocol field in microseconds).
/// A consumer declares its bounds once and reads its text with `DurationText.read(_:within:)`, so
/// that a duration it cannot hold is refused where the text is read, in words, before anything
/// uses it — never an overflow trap or a server's error halfway through a run.
package struct DurationBounds: Sendable, Equatable {
    package let minimum: Duration
    package let maximum: Duration
    /// Why nothing longer than `maximum` can be held, completing "give at most 576h: …".
    package let limit: String

    package init(minimum: Duration, maximum: Duration, limit: String) {
        self.minimum = minimum
        self.maximum = maximum
        self.limit = limit
    }

    /// Throws when `duration` is shorter than `minimum` or longer than `maximum`.
    package func check(_ duration: Duration) throws(InvalidDuration) {
        if duration < minimum { throw .shorterThan(minimum) }
        if duration > maximum { throw .longerThan(maximum, limit: limit) }
    }
}
