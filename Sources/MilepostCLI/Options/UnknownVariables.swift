import MilepostSystem

/// `MILEPOST_*` variables milepost does not read. A setting's name misspelt
/// (`MILEPOST_PAHSE=contract`) would otherwise be ignored without a word — and the contract step
/// never run — so every command warns about each by name, with the closest known name; the
/// pre-start fast path leaves a run with one to the full path, which warns (`noneSet(besides:)`).
enum UnknownVariables {
    static let prefix = "MILEPOST_"

    /// The `MILEPOST_*` variables read besides the options' (`Setting`): where the client
    /// libraries are, the systemd notify interval, the crash tests' fail point, what an `exec`
    /// step is given (`ExecStep`), which a milepost run inside a step inherits, and what
    /// `milepost test` gives its child runs (`CrashTrialVariable`) and its sandboxes' processes.
    static let others = clientLibraries + [
        ServiceManagerStatus.intervalVariable, "MILEPOST_FAILPOINT",
        "MILEPOST_STEP", "MILEPOST_FROM", "MILEPOST_CONTROL_FD", "MILEPOST_RESUME_CURSOR",
        CrashTrialVariable.name, "MILEPOST_TEST_DIR", "MILEPOST_TEST_FROM", "MILEPOST_TEST_STORE",
    ]

    /// Where the PostgreSQL and MariaDB stores load their client libraries from (read by those
    /// targets, which this one does not depend on).
    static let clientLibraries = ["MILEPOST_LIBPQ", "MILEPOST_LIBMARIADB"]

    /// Every `MILEPOST_*` variable milepost reads: the options' (every option with a variable is
    /// one of `run`'s, `PreStart.names`) and `others`.
    static var known: [String] { PreStart.names.map(Setting.variable) + others }

    /// Whether no unknown variable is set, by counting: the `MILEPOST_*` variables set are exactly
    /// the `optionVariables` of the options' variables the caller found set, and the `others` set.
    /// The pre-start fast path's question, asked without making a text of any name: it has looked
    /// the options' variables up already.
    static func noneSet(besides optionVariables: Int) -> Bool {
        let set = ProcessEnvironment.count(prefixed: prefix)
        // The others are looked up only when the options' variables do not account for every one.
        return set == optionVariables || set == optionVariables + others.count(where: ProcessEnvironment.isSet)
    }

    /// The unknown variables set now, in the environment's order.
    static func names() -> [String] {
        let set = ProcessEnvironment.names(prefixed: prefix)
        guard !set.isEmpty else { return [] }
        let known = known
        return set.filter { !known.contains($0) }
    }

    /// `MILEPOST_PAHSE is set, but …; did you mean MILEPOST_PHASE?`: one line per unknown variable.
    static func warnings() -> [String] {
        let known = known
        let suffixes = known.map { String($0.dropFirst(prefix.count)) }
        return names().map { name in
            // Compared without the prefix every name shares, which would make any two look alike.
            let suggestion = NameSuggestion.closest(to: String(name.dropFirst(prefix.count)), among: suffixes).map { prefix + $0 }
            return "milepost: warning: \(name) is set, but milepost reads no such variable: it is ignored"
                + (suggestion.map { "; did you mean \($0)?" } ?? "")
        }
    }
}
