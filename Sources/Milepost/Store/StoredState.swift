/// What a store remembers between runs. Serialized as `state.json` by the file store.
///
/// Changing any field but `plannedWith` drops `plannedWith`: the digest vouches for the state as it
/// was when a run found it up to date with that manifest, and for no other.
public struct StoredState: Codable, Sendable, Equatable {
    /// The format of this record; bumped on incompatible changes.
    public static let currentFormat = 1

    public var format: Int { didSet { plannedWith = nil } }
    /// The manifest's `app` label when the state was last written.
    public var app: String? { didSet { plannedWith = nil } }
    /// The last version reached, with the text whoever set it wrote (`--to`, `baseline`).
    public var version: Version { didSet { plannedWith = nil } }
    /// Every step that completed, in the order it completed.
    public var completed: [CompletedStep] { didSet { plannedWith = nil } }
    /// The step that was running when the state was last written, if any.
    public var inProgress: InProgressStep? { didSet { plannedWith = nil } }
    /// The last step that failed, until it succeeds or is resolved.
    public var failed: FailedStep? { didSet { plannedWith = nil } }
    /// When the state was last written.
    public var updatedAt: Timestamp { didSet { plannedWith = nil } }
    /// A revert that has not finished yet (`milepost revert`); nil otherwise, and in states written
    /// before reverts existed.
    public var reverting: UnfinishedRevert? { didSet { plannedWith = nil } }
    /// The marks of unfinished steps that another step ran before (a late step below them, one left
    /// out by an earlier `--labels` run, a failed step retried first): each keeps its cursor until its
    /// step runs again or is resolved, instead of being overwritten by the other step's mark
    /// (`StoredState+Marks.swift`). Empty in most states.
    public var setAside: [SetAsideMark] {
        get { storedSetAside ?? [] }
        set { storedSetAside = newValue.isEmpty ? nil : newValue; plannedWith = nil }
    }
    /// `setAside`, nil when empty: the key is written only when a mark is set aside.
    private var storedSetAside: [SetAsideMark]?
    /// How far below `version` the store stays compatible (`CompatibilityFloor`); nil: down to
    /// `version` only, as in a store no manifest with contract steps has run on.
    public var floor: CompatibilityFloor? { didSet { plannedWith = nil } }
    /// The digest of the manifest (`ManifestDigest`) a run last planned with against this very state
    /// and found up to date at `version`, or made so: a run to `version` whose manifest has the same
    /// digest is up to date without reading anything else (`Runner.upToDate(_:at:manifest:)`). Set
    /// last, by the run; nil in states written before digests existed, and after any other change.
    public var plannedWith: ManifestDigest?

    public init(
        app: String?, version: Version, completed: [CompletedStep] = [],
        inProgress: InProgressStep? = nil, failed: FailedStep? = nil, updatedAt: Timestamp,
        reverting: UnfinishedRevert? = nil
    ) {
        self.format = Self.currentFormat
        self.app = app
        self.version = version
        self.completed = completed
        self.inProgress = inProgress
        self.failed = failed
        self.updatedAt = updatedAt
        self.reverting = reverting
    }

    enum CodingKeys: String, CodingKey {
        case format, app, version, completed
        case inProgress = "in_progress"
        case failed
        case updatedAt = "updated_at"
        case reverting
        case storedSetAside = "set_aside"
        case floor
        case plannedWith = "planned_with"
    }
}

/// A step recorded as done.
public struct CompletedStep: Codable, Sendable, Equatable {
    /// `THRESHOLD/ID`.
    public var id: String
    /// When it completed.
    public var at: Timestamp
    /// The run that completed it.
    public var run: String
    /// Fingerprint of the manifest entry and the step's declared revision when it ran.
    public var fingerprint: String
    /// How it got here: nil when it ran, `"resolved"` when marked done by hand.
    public var via: String?

    public init(id: String, at: Timestamp, run: String, fingerprint: String, via: String? = nil) {
        self.id = id
        self.at = at
        self.run = run
        self.fingerprint = fingerprint
        self.via = via
    }
}

/// A step that had started and not yet finished when the state was written.
public struct InProgressStep: Codable, Sendable, Equatable {
    public var id: String
    public var run: String
    public var since: Timestamp
    public var attempt: Int
    public var host: String
    public var pid: Int32
    /// The last cursor the step committed (`StepContext.commitCursor`), the one it resumes at.
    public var cursor: String?
    /// The tail of the step's stderr when it was interrupted (`exec`), control characters escaped.
    public var stderr: String?
    /// The step's last reported progress, written at most every `RunOptions.progressInterval`.
    public var progress: StepProgress?
    /// The step's phase when it is not the pre-start phase (`StepPhase`): a background step's mark
    /// keeps neither `status --check` nor a pre-start run from going on. Nil: pre-start.
    public var phase: StepPhase?
    /// `.revert` when it was the step's revert that was running; nil (forward) otherwise.
    public var direction: StepDirection?
    /// The process group the step's work runs in, when the step reported one (`exec` does):
    /// alive after its run is gone, the step still runs (`isRunning(lockHolder:)`).
    public var processGroup: StepProcessGroup?

    public init(
        id: String, run: String, since: Timestamp, attempt: Int, host: String, pid: Int32, cursor: String? = nil,
        stderr: String? = nil, direction: StepDirection? = nil, processGroup: StepProcessGroup? = nil, phase: StepPhase? = nil
    ) {
        self.id = id
        self.run = run
        self.since = since
        self.attempt = attempt
        self.host = host
        self.pid = pid
        self.cursor = cursor
        self.stderr = stderr
        self.direction = direction
        self.processGroup = processGroup
        self.phase = phase
    }

    enum CodingKeys: String, CodingKey {
        case id, run, since, attempt, host, pid, cursor, stderr, progress, direction, phase
        case processGroup = "process_group"
    }
}

/// The last failure of a step.
public struct FailedStep: Codable, Sendable, Equatable {
    public var id: String
    public var run: String
    public var at: Timestamp
    public var error: String
    /// The last cursor the step committed: the next run of the step resumes at it.
    public var cursor: String?
    /// The tail of the step's stderr (`exec`), control characters escaped.
    public var stderr: String?
    /// `.revert` when it was the step's revert that failed; nil (forward) otherwise.
    public var direction: StepDirection?
    /// The step's phase when it is not the pre-start phase (`InProgressStep.phase`). Nil: pre-start.
    public var phase: StepPhase?

    public init(
        id: String, run: String, at: Timestamp, error: String, cursor: String? = nil, stderr: String? = nil,
        direction: StepDirection? = nil, phase: StepPhase? = nil
    ) {
        self.id = id
        self.run = run
        self.at = at
        self.error = error
        self.cursor = cursor
        self.stderr = stderr
        self.direction = direction
        self.phase = phase
    }
}
