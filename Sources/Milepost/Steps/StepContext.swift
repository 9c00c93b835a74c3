public import Logging
import MilepostSystem

/// What a step's closure is handed when it runs.
///
/// Cancellation: a timeout or a SIGINT/SIGTERM to the runner cancels the step's task.
/// A step should check `Task.isCancelled` (or call `try Task.checkCancellation()`) between units of
/// work and stop promptly; the runner waits at most `terminationGrace` before it records the step
/// as interrupted and moves on without it.
public struct StepContext<Parameters: Sendable>: Sendable {
    /// `THRESHOLD/ID`, as the state and journal name the step.
    public let id: String
    /// The registered step name.
    public let name: String
    /// The manifest threshold the step belongs to.
    public let threshold: Version
    /// The version the run started from (stored version or baseline).
    public let from: Version
    /// The version the run goes to.
    public let to: Version
    /// The manifest's `with:`, decoded into the step's declared parameter type: at load, to validate
    /// it, and again, the same way, for the run (once for all its attempts).
    public let parameters: Parameters
    /// 1 for the first attempt, 2 for the first retry, …
    public let attempt: Int
    /// A logger whose metadata carries the step id and run id; it masks the manifest's secret values.
    public let logger: Logger
    /// The directory of the manifest, for resolving relative paths.
    public let manifestDirectory: String
    /// How long the runner waits for the step to stop after cancelling it (`--termination-grace`;
    /// when the run's lease is lost, at most what is left before another runner can take the lock).
    public var terminationGrace: Duration { stopGrace.duration }
    /// The grace as the runner may shorten it while the step runs; `exec` reads it when cancelled.
    let stopGrace: StopGrace
    /// The database of the store the run holds the lock of, for steps that run scripts on it
    /// (`sql`, `mysql`, `sqlite`: in the step's checkpoint transaction when the step's parameters
    /// ask for one); nil on the file store. A step never gets the locked store itself.
    public let scripts: StoreScripts?
    /// The last cursor an earlier attempt of this step committed, when this attempt resumes
    /// one: continue after it. Nil for a start from the beginning.
    public let resumeCursor: String?

    let reporting: StepReporting

    /// Says how far the step got: `completed` units of `total` (when known), with an optional
    /// message. The terminal shows a progress bar with rate and ETA; the store keeps the latest
    /// report with the step (written at most every `RunOptions.progressInterval`, the first at
    /// once) for `milepost status` on any host, and the journal a `step-progress` record each time.
    /// The manifest's secret values are masked in `message` before any of them sees it.
    /// Never throws: a report the store cannot take is dropped with a warning.
    public func reportProgress(_ completed: Int, of total: Int? = nil, message: String? = nil) async {
        await reporting.reportProgress(completed, total, message)
    }

    /// Records how far the step got: `cursor` (an opaque text of at most 4 KiB of UTF-8) is durable
    /// in the store when this returns, and an attempt that resumes this step after an interruption or
    /// a failure gets it as `resumeCursor`. Commit a cursor only once the work before it is durable
    /// itself; a step declared `resumable` resumes at its last cursor without `milepost resolve`.
    /// - throws: `StepCursorError` for a longer cursor; the store's error when it cannot write;
    ///   `CancellationError` once the attempt has ended (a step that outlived its termination grace).
    public func commitCursor(_ cursor: String) async throws {
        try StepCursorError.check(cursor)
        try await reporting.commitCursor(cursor)
    }

    /// Records that the step's work runs in process group `group` (the pid of a child the step
    /// spawned as the leader of a group of its own, as `exec` does): in the step's in-progress mark
    /// when this returns, durable against the runner's death (not against a power cut, which the
    /// group does not outlive either). If the runner is killed while that group lives on, a
    /// later `run`, `revert`, `resolve` or `status` on this machine sees the step as still running
    /// and waits for it (up to the lock timeout) instead of starting it a second time. Report the
    /// group before the child does any work; a step whose work runs in the store's transaction
    /// (`sql`) keeps no mark, and for it this records nothing.
    /// - throws: the store's error when it cannot write; `CancellationError` once the attempt has
    ///   ended.
    public func recordProcessGroup(_ group: Int32) async throws {
        try await reporting.recordProcessGroup(group)
    }

    /// The manifest's secret values, masked in what Milepost writes.
    let secrets: SecretValues

    /// `text` with the values of the manifest's secret variables replaced by `***`: for text a step
    /// writes itself (the runner masks what it logs through `logger`, its progress messages and the
    /// errors it throws).
    public func redact(_ text: String) -> String {
        secrets.redact(text)
    }

    /// A path written in the manifest, resolved against the manifest's directory (an absolute path
    /// stays as it is): `exec`'s `cwd`, `sql`'s `file`.
    public func manifestPath(_ path: String) -> String {
        ManifestRelativePath.resolve(path, in: manifestDirectory)
    }
}

/// The one manifest-relative path rule: a path written in a manifest is taken as it is when
/// absolute, else relative to the manifest's directory (`StepContext.manifestPath`, and the
/// definition files read when the manifest is loaded).
enum ManifestRelativePath {
    static func resolve(_ path: String, in directory: String) -> String {
        path.hasPrefix("/") ? path : directory + "/" + path
    }
}

/// The parameter type of a step that takes none: any `with:` key is reported as unknown.
public struct NoParameters: Decodable, Sendable, Hashable {
    public init() {}

    public init(from decoder: any Decoder) throws {
        // Asking for a keyed container is what lets the manifest decoder report every key as unknown.
        _ = try decoder.container(keyedBy: NoKeys.self)
    }

    private enum NoKeys: CodingKey {}
}
