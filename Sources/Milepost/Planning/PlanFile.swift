import FoundationEssentials

/// A reviewed plan (`plan --out plan.json`): what a plan was made against — the digests of the
/// manifest and the files it depends on, the stored state, the store, the target, labels and
/// phase — and the steps it runs, in order. A run given it (`RunOptions.reviewedPlan`, `run
/// --plan`) runs exactly those steps or, before any step, refuses with what changed since
/// (`changes(since:state:manifest:)`); a store another runner brought to the target meanwhile
/// is up to date, not a change.
public struct PlanFile: Codable, Sendable, Equatable {
    /// The format of the file; bumped on incompatible changes.
    public static let currentFormat = 1

    /// A file the plan depends on, as it was when the plan was made.
    public struct Input: Codable, Sendable, Equatable {
        /// The path as the run opens it: relative to the working directory unless absolute.
        public var path: String
        /// FNV-1a (64 bits, hex) of its bytes; nil when it could not be read.
        public var digest: String?
    }

    /// A step the plan runs.
    public struct PlannedStep: Codable, Sendable, Equatable {
        /// `THRESHOLD/ID`.
        public var id: String
        /// The step's fingerprint when the plan was made (`ManifestStep.fingerprint`).
        public var fingerprint: String
        /// `requires: approval`: the run stops before it until it is approved; nil: false.
        public var requiresApproval: Bool?

        enum CodingKeys: String, CodingKey {
            case id, fingerprint
            case requiresApproval = "requires_approval"
        }
    }

    /// The stored state the plan was made against.
    public struct StateSummary: Codable, Sendable, Equatable {
        /// FNV-1a of the state without its write time and recorded manifest digest (`digest(of:)`).
        public var digest: String
        public var version: Version
        /// How many steps were completed.
        public var completed: Int
        public var floor: Version?
    }

    public var format: Int
    public var createdAt: Timestamp
    public var app: String?
    /// The store planned against (`MilepostStore.location`, without a password), for people: a run
    /// is checked against the store's state, wherever it is opened from.
    public var store: String
    /// The manifest's digest (`Manifest.digest`: its bytes, its env file's, its definition files').
    public var manifest: ManifestDigest
    /// The manifest file, its definition files and the other files the plan depends on (its env
    /// file, the lock file), each with its digest then.
    public var inputs: [Input]
    /// The stored state; nil when nothing was stored.
    public var state: StateSummary?
    public var from: Version
    public var to: Version
    /// The `--labels` expression the plan was made with, as written.
    public var labels: String?
    public var phase: StepPhase
    /// The steps a run runs, in order (`Plan.pending`).
    public var steps: [PlannedStep]

    enum CodingKeys: String, CodingKey {
        case format
        case createdAt = "created_at"
        case app, store, manifest, inputs, state, from, to, labels, phase, steps
    }

    /// The record of `plan`, made from `state` on `store` with `manifest`; `files` are the other
    /// files it depends on (the env file, the lock file), read now for their digests.
    public init(_ plan: Plan, manifest: Manifest, state: StoredState?, store: String, files: [String] = []) {
        format = Self.currentFormat
        createdAt = Timestamp.now()
        app = manifest.app
        self.store = store
        self.manifest = manifest.digest
        let definitionFiles = manifest.digest.files.map { ManifestRelativePath.resolve($0, in: manifest.directory) }
        inputs = ([manifest.source.path] + definitionFiles + files).map { Input(path: $0, digest: DefinitionFile.digest(path: $0)) }
        self.state = state.map { StateSummary(digest: Self.digest(of: $0), version: $0.version, completed: $0.completed.count, floor: $0.floor?.version) }
        from = plan.from
        to = plan.to
        labels = plan.scope.labels?.text
        phase = plan.scope.phase
        steps = plan.pending.map { PlannedStep(id: $0.id, fingerprint: $0.fingerprint, requiresApproval: $0.requiresApproval ? true : nil) }
    }

    /// The file as written: JSON with sorted keys, two-space indented, and a newline.
    public var json: [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        // Strings, numbers and versions encode without failing.
        return Array(try! encoder.encode(self)) + [UInt8(ascii: "\n")]
    }

    /// Reads a plan file's bytes.
    /// - throws: `DecodingError` when they are not a plan file of a format this release reads.
    public init(json bytes: [UInt8]) throws {
        self = try JSONDecoder().decode(PlanFile.self, from: Data(bytes))
        guard format == Self.currentFormat else {
            throw DecodingError.dataCorrupted(.init(
                codingPath: [CodingKeys.format], debugDescription: "plan file format \(format); this release reads format \(Self.currentFormat)"))
        }
    }

    /// The plan's own digest, whitespace aside: what an approval given for it records (`approve --plan`).
    public var digest: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var hash = FNV1a()
        hash.add(try! encoder.encode(self))
        return hash.hex
    }

    // MARK: - What changed

    /// What changed since the plan was made, for a run of `plan` (made now) from `state` with
    /// `manifest`: the target, labels or phase, the manifest or a file it depends on, the stored
    /// state (another runner moved it), and the steps; empty when the run would run exactly the
    /// planned steps against what the plan was made against.
    public func changes(since plan: Plan, state: StoredState?, manifest: Manifest) -> [PlanChange] {
        var changes: [PlanChange] = []
        func change(_ what: PlanChange.Subject, _ message: String) { changes.append(PlanChange(subject: what, message: message)) }
        if plan.to != to { change(.target, "the target: planned to \(to), this run goes to \(plan.to)") }
        if plan.scope.labels?.text != labels {
            change(.labels, "the labels: planned with \(labels.map { "'\($0)'" } ?? "none"), this run has \(plan.scope.labels.map { "'\($0)'" } ?? "none")")
        }
        if plan.scope.phase != phase { change(.phase, "the phase: planned for \(phase.rawValue), this run is \(plan.scope.phase.rawValue)") }
        let edited = inputs.filter { DefinitionFile.digest(path: $0.path) != $0.digest }.map(\.path)
        if !edited.isEmpty {
            change(.manifest, "changed since the plan was made: \(edited.joined(separator: ", "))")
        } else if manifest.digest != self.manifest {
            change(.manifest, "the manifest's inputs changed since the plan was made (its env file, or the files its steps read)")
        }
        if let moved = moved(to: state) { change(.state, moved) }
        let planned = steps.map(\.id), now = plan.pending.map(\.id)
        if planned != now {
            change(.steps, "the steps: planned \(Self.list(planned)); this run would run \(Self.list(now))")
        } else {
            let fingerprints = Dictionary(steps.map { ($0.id, $0.fingerprint) }, uniquingKeysWith: { first, _ in first })
            let edited = plan.pending.filter { fingerprints[$0.id] != $0.fingerprint }.map(\.id)
            if !edited.isEmpty { change(.steps, "edited since the plan was made: \(edited.joined(separator: ", "))") }
        }
        return changes
    }

    /// How the stored state moved since the plan was made, in words; nil when it did not.
    private func moved(to state: StoredState?) -> String? {
        switch (self.state, state) {
        case (nil, nil): return nil
        case (nil, let now?): return "the store: nothing was stored when the plan was made; it is at \(now.version) now"
        case (let then?, nil): return "the store: it was at \(then.version) when the plan was made; nothing is stored now"
        case (let then?, let now?):
            guard Self.digest(of: now) != then.digest else { return nil }
            var what: [String] = []
            if now.version != then.version { what.append("its version went from \(then.version) to \(now.version)") }
            if now.completed.count > then.completed {
                what.append("\(counted(now.completed.count - then.completed, "step")) completed since ("
                    + now.completed.dropFirst(then.completed).map(\.id).joined(separator: ", ") + ")")
            }
            if let failed = now.failures.first { what.append("\(failed.id) failed") }
            if let mark = now.inProgress { what.append("\(mark.id) was left in progress by run \(mark.run)") }
            if now.floor?.version != then.floor { what.append("its compatibility floor is \(now.floor.map(\.version.text) ?? "none")") }
            return "the store moved since the plan was made (another runner?): "
                + (what.isEmpty ? "its state differs" : what.joined(separator: "; "))
        }
    }

    private static func list(_ ids: [String]) -> String { ids.isEmpty ? "nothing" : ids.joined(separator: ", ") }

    /// The digest of `state` as a plan depends on it: every field but when it was written and the
    /// manifest digest a run recorded (neither changes what a run does).
    static func digest(of state: StoredState) -> String {
        var state = state
        state.updatedAt = Timestamp(millisecondsSince1970: 0)
        state.plannedWith = nil
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        var hash = FNV1a()
        hash.add(try! encoder.encode(state))
        return hash.hex
    }

}

/// One thing that changed since a reviewed plan was made (`PlanFile.changes(since:state:manifest:)`).
public struct PlanChange: Sendable, Equatable {
    /// What changed.
    public enum Subject: String, Sendable, Codable {
        case target, labels, phase, manifest, state, steps
    }

    public let subject: Subject
    /// The change in words.
    public let message: String
}
