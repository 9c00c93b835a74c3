public import MilepostYAML

/// One step of a manifest, resolved against the registry.
///
/// A final class rather than a struct: plans, reports and status hold steps by the hundred
/// thousand, and a struct of this many reference-counted fields made every copy cost a retain per
/// field (docs/performance.md).
public final class ManifestStep: Sendable {
    /// `THRESHOLD/ID`, e.g. `2.10/reindex-dailys`.
    public let id: String
    /// The threshold as a version, and as written.
    public let threshold: Version
    /// The registered step name.
    public let name: String
    /// The entry's `description:`, if the manifest gives one (`plan` shows it; the registered
    /// description of the step is `StepDefinition.description`).
    public let description: String?
    /// Per-attempt time limit (`timeout:`), if any.
    public let timeout: Duration?
    /// Extra attempts after a failure (`retries:`).
    public let retries: Int
    /// Safe to run again after an interruption: `idempotent: true` in the manifest or at registration.
    public let idempotent: Bool
    /// Resumes at its last committed cursor after an interruption, without `resolve`:
    /// `resumable: true` in the manifest or at registration.
    public let resumable: Bool
    /// The step's own `late:`, if it has one (`Manifest.latePolicy(for:)` resolves the default).
    public let late: LatePolicy?
    /// `replaces:`: the id (`THRESHOLD/ID`) of an earlier step this one renames; the store's record
    /// of that step counts as this step's, so it does not run again.
    public let replaces: String?
    /// `labels:`: the names a `--labels` expression chooses the step by; empty: always in scope.
    public let labels: [String]
    /// `when:`: the kind of run the step belongs to (fresh install or upgrade); nil: every run.
    public let when: StepCondition?
    /// `repeat:`: runs again when its entry or revision changes (a *repeatable* step); nil for a one-time step.
    public let repeats: RepeatPolicy?
    /// `phase:`: which run runs it (pre-start, contract or background); `.preStart` by default.
    public let phase: StepPhase
    /// `after: background`: a contract step that runs only once every background step at or below
    /// its threshold has completed (`Plan.Status.waiting` until then): the contract cannot drop
    /// what a backfill still reads. A contract run waits for them (`RunOptions.lockTimeout`).
    public let runsAfterBackground: Bool
    /// `scope:`: recorded once for the fleet (`--store`) or once per host (`--host-store`); `.fleet` by default.
    public let scope: StepScope
    /// `expected:`: how long the step is expected to take, when the manifest says; the budgets of
    /// `plan --deadline` and `run --deadline` use it where no run of the step is recorded (`StepDurations`).
    public let expected: Duration?
    /// `requires: approval`: a run stops before the step until `milepost approve` journals an
    /// approval of it as it is now (`StepApprovals`).
    public let requiresApproval: Bool
    /// Where the step is written in the manifest.
    public let location: SourceLocation
    /// A digest of the entry (name, parameters, a `host` scope), the registered revision and the
    /// contents of the step's definition files; `status` compares it with the one recorded when
    /// the step ran.
    /// Sixteen hex digits, worked out on each access (read it once), from the entry as loaded: few
    /// commands need it for every step (`status`, `lock`), and at load it was 8 % of a big
    /// manifest's instructions (issue 32, docs/performance.md).
    public var fingerprint: String {
        Fingerprint.of(name: name, with: with, revision: definition.revision, files: definitionFiles, scope: scope).hex
    }
    /// The files the step reads as its definition (`DefinitionFileParameters`), as they were when
    /// the manifest was read; empty for most steps.
    public let definitionFiles: [DefinitionFile]

    /// The registered definition, shared by every step of the manifest with this name: inline, it
    /// was a quarter of each step's bytes (issue 32, docs/performance.md).
    private let sharedDefinition: SharedDefinition
    var definition: StepDefinition { sharedDefinition.definition }
    /// The entry's `with:` and the decoder that read it when the manifest was loaded: a step's
    /// parameters are decoded again when a run needs them rather than kept for every step (a 1 MiB
    /// manifest's were 1.3 MB of its load's peak; issue 32, docs/performance.md). The node keeps
    /// the composed document alive as long as the manifest, as the decoded values did their part.
    private let with: YAMLNode?
    private let parameterDecoder: YAMLNodeDecoder

    /// The step's parameters, decoded from its `with:` as when the manifest was loaded: the same
    /// node, variables and decoder, so the same value for any parameters type whose `init(from:)`
    /// gives the same value every time (which `StepRegistry.register` asks of it).
    package func parameters() throws(YAMLError) -> any Sendable {
        try definition.decodeParameters(with, parameterDecoder)
    }

    /// The parameters of a step whose type adopts `StoreBoundParameters`; nil, without decoding
    /// them, for any other step.
    var storeBoundParameters: (any StoreBoundParameters)? {
        guard ParameterConformances.of(definition.parametersType).storeBound else { return nil }
        return (try? parameters()) as? any StoreBoundParameters
    }
    /// How `milepost revert` undoes the step; nil when it cannot.
    let revert: StepRevert?
    /// Can be undone by `milepost revert`: it has a revert, registered or in the manifest.
    public var hasRevert: Bool { revert != nil }
    /// Its revert is `revert: none`: reverting past it runs nothing and only marks it not done.
    public var revertsNothing: Bool { revert?.undoesNothing == true }
    /// The manifest's secret values (one object shared by its steps).
    let secrets: SecretValues
    /// An error for each `${…}` of a declared variable that is unset, in `with:` or `revert:`: the
    /// step cannot run (or revert) until it is set (`Manifest.requireVariables(of:)`); other steps can.
    public let unsetVariables: [Diagnostic]

    init(
        id: String, threshold: Version, name: String, description: String?, timeout: Duration?, retries: Int,
        idempotent: Bool, resumable: Bool = false, late: LatePolicy? = nil, replaces: String? = nil, repeats: RepeatPolicy? = nil,
        labels: [String] = [], when: StepCondition? = nil, phase: StepPhase = .preStart, runsAfterBackground: Bool = false,
        scope: StepScope = .fleet, expected: Duration? = nil, requiresApproval: Bool = false, location: SourceLocation,
        definitionFiles: [DefinitionFile] = [], definition: SharedDefinition, with: YAMLNode?, parameterDecoder: YAMLNodeDecoder,
        revert: StepRevert? = nil,
        secrets: SecretValues, unsetVariables: [Diagnostic] = []
    ) {
        self.id = id
        self.threshold = threshold
        self.name = name
        self.description = description
        self.timeout = timeout
        self.retries = retries
        self.idempotent = idempotent
        self.resumable = resumable
        self.late = late
        self.replaces = replaces
        self.labels = labels
        self.when = when
        self.phase = phase
        self.runsAfterBackground = runsAfterBackground
        self.scope = scope
        self.repeats = repeats
        self.expected = expected
        self.requiresApproval = requiresApproval
        self.location = location
        self.definitionFiles = definitionFiles
        self.sharedDefinition = definition
        self.with = with
        self.parameterDecoder = parameterDecoder
        self.revert = revert
        self.secrets = secrets
        self.unsetVariables = unsetVariables
    }
}
