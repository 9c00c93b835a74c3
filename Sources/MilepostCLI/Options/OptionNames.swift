/// The long names of the options `run` takes, in one place: the parser declares each option with
/// its name from here (`.customLong(OptionNames.store)`) and `PreStart` reads the same names, so
/// renaming an option cannot silently turn the fast path off. `PreStartTests` checks the two
/// against the parser's own list of `run`'s options.
enum OptionNames {
    static let store = "store"
    static let manifest = "manifest"
    static let maxManifestSize = "max-manifest-size"
    static let envFile = "env-file"
    static let to = "to"
    static let dryRun = "dry-run"
    static let lockTimeout = "lock-timeout"
    static let terminationGrace = "termination-grace"
    static let progressInterval = "progress-interval"
    static let allowDowngrade = "allow-downgrade"
    static let existingStore = "existing-store"
    static let format = "format"
    static let logLevel = "log-level"
    static let logFormat = "log-format"
    static let metricsFile = "metrics-file"
    static let labels = "labels"
    static let phase = "phase"
    static let hostStore = "host-store"
    static let deadline = "deadline"
    static let history = "history"
    static let plan = "plan"
}
