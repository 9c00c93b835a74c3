import Glibc

/// Timing and memory helpers.
enum Measure {
    /// The median wall time of `iterations` calls of `body`, in milliseconds.
    static func medianMilliseconds(_ iterations: Int, _ body: () throws -> Void) rethrows -> Double {
        var times: [Double] = []
        for _ in 0..<max(iterations, 1) {
            times.append(try milliseconds(body))
        }
        return times.sorted()[times.count / 2]
    }

    /// The wall time of one call of `body`, in milliseconds.
    static func milliseconds(_ body: () throws -> Void) rethrows -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        try body()
        let elapsed = (clock.now - start).components
        return Double(elapsed.seconds) * 1e3 + Double(elapsed.attoseconds) / 1e15
    }

    /// The process's peak resident set size so far, in KiB (`getrusage`).
    static func peakResidentKiB() -> Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return usage.ru_maxrss
    }

    /// Prints one `key value` line for run.sh.
    static func report(_ key: String, _ value: Double) {
        print(key, (value * 1000).rounded() / 1000)
    }
}
