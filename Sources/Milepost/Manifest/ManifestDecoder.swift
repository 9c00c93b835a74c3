import MilepostSystem
import MilepostYAML

/// Turns a YAML node tree into manifest steps, collecting every problem instead of stopping at the first.
struct ManifestDecoder {
    struct Contents {
        var app: String?
        var baseline: Version?
        var steps: [ManifestStep]
        var late: LatePolicy?
        var upgradeFrom: Version?
        var stops: [Version] = []
        var hooks = ManifestHooks()
        /// The manifest has a `variables:` key (even an empty one).
        var declaresVariables = false
    }

    let file: String
    /// The manifest's directory: definition files are read relative to it.
    let directory: String
    let registry: StepRegistry
    /// The values substituted; nil when only the syntax of `${…}` is checked.
    let variables: ManifestVariables?
    /// The values of secret variables, filled while decoding.
    let secrets = SecretValues()
    /// The declared variables and every `${…}` met, filled while decoding.
    let uses = VariableUses()
    /// Decodes `with:`, substituting `${…}` (see `ManifestVariables`).
    let parameterDecoder: YAMLNodeDecoder
    private(set) var diagnostics: [Diagnostic] = []
    /// The definitions steps were resolved to, by step name, each shared by those steps.
    private var sharedDefinitions: [String: SharedDefinition] = [:]

    init(file: String, registry: StepRegistry, variables: ManifestVariables?) {
        self.file = file
        self.directory = PathText.directory(of: file)
        self.registry = registry
        self.variables = variables
        self.parameterDecoder = YAMLNodeDecoder(strings: VariableSubstitution.transform(variables, secrets: secrets, uses: uses))
    }

    static let topLevelKeys = ["app", "baseline", "migrations", "late", "upgrade_from", "stops", "secrets", "variables", "hooks"]
    static let stepKeys = ["name", "id", "with", "timeout", "retries", "idempotent", "resumable", "description", "late", "replaces", "repeat", "revert", "labels", "when", "phase", "after", "scope", "expected", "requires"]

    // MARK: - Document

    mutating func decode(_ root: YAMLNode?) -> Contents? {
        guard let root, root.kind == .mapping else {
            error("a manifest is a mapping with a 'migrations' key", at: root?.location ?? SourceLocation(line: 1, column: 1))
            return nil
        }
        var contents = Contents(steps: [])
        var sawMigrations = false
        // Declared before the steps that use them.
        if let variables = root["variables"] {
            contents.declaresVariables = true
            variableNames(variables)
        }
        if let secrets = root["secrets"] { secretNames(secrets) }
        for (key, value) in root.pairs {
            switch key.scalar {
            case "app": contents.app = string(value, what: "'app'")
            case "baseline": contents.baseline = string(value, what: "'baseline'").flatMap { version($0, at: value) }
            case "migrations":
                sawMigrations = true
                contents.steps = migrations(value)
            case "late": contents.late = latePolicy(value)
            case "upgrade_from":
                contents.upgradeFrom = string(value, what: "'upgrade_from'").flatMap { version($0, at: value) }
            case "stops": contents.stops = stops(value)
            case "secrets", "variables": continue
            case "hooks": contents.hooks = hooks(value)
            case let name? where name.hasPrefix("x-"): continue  // an extension key: a place for anchors
            default: unknownKey(key, known: Self.topLevelKeys, in: "the manifest")
            }
        }
        if !sawMigrations { error("missing the required key 'migrations'", at: root.location) }
        checkReplaces(contents.steps)
        if !contents.declaresVariables { warnAboutUndeclaredVariables() }
        return contents
    }

    // MARK: - Thresholds

    private mutating func migrations(_ node: YAMLNode) -> [ManifestStep] {
        guard node.kind == .mapping else {
            error("'migrations' maps version thresholds to lists of steps", at: node.location)
            return []
        }
        var thresholds: [(version: Version, steps: [ManifestStep])] = []
        var seen: [Version: (text: String, location: SourceLocation)] = [:]
        var numbers: [Double: (text: String, location: SourceLocation)] = [:]
        for (key, value) in node.pairs {
            guard let text = key.scalar else { continue }
            guard let threshold = version(text, at: key) else {
                // Its steps are still decoded, under a stand-in version, to report their errors too.
                _ = steps(value, threshold: .zero, thresholdText: text)
                continue
            }
            if let first = seen[threshold] {
                error("threshold '\(text)' is the same version as '\(first.text)'", at: key.location,
                      notes: [.init("'\(first.text)' is defined here", at: first.location)])
                _ = steps(value, threshold: threshold, thresholdText: text)  // still report its steps' errors
                continue
            }
            if let previous = thresholds.last?.version, threshold < previous {
                diagnostics.append(Diagnostic(
                    .warning, "threshold '\(text)' is written after a higher one; steps run in version order regardless",
                    file: file, at: key.location))
            }
            seen[threshold] = (text, key.location)
            warnIfSameNumber(key, text: text, among: &numbers)
            thresholds.append((threshold, steps(value, threshold: threshold, thresholdText: text)))
        }
        return thresholds.sorted { $0.version < $1.version }.flatMap(\.steps)
    }

    mutating func steps(_ node: YAMLNode, threshold: Version, thresholdText: String) -> [ManifestStep] {
        guard node.kind == .sequence else {
            error("the steps of '\(thresholdText)' must be a list", at: node.location)
            return []
        }
        if node.elements.isEmpty {
            error("threshold '\(thresholdText)' has no steps", at: node.location)
        }
        var result: [ManifestStep] = []
        var ids: [String: SourceLocation] = [:]
        for element in node.elements {
            guard let step = step(element, threshold: threshold, thresholdText: thresholdText) else { continue }
            // One hash of the id for a step whose id is new (a dictionary lookup then a store hashed it twice).
            if let first = ids.updateValue(step.location, forKey: step.id) {
                ids[step.id] = first
                error("two steps with the id '\(step.id)'; give one an 'id:'", at: step.location,
                      notes: [.init("the first is here", at: first)])
                continue
            }
            result.append(step)
        }
        return result
    }

    // MARK: - Steps

    private mutating func step(_ node: YAMLNode, threshold: Version, thresholdText: String) -> ManifestStep? {
        var fields = StepFields()
        switch node.kind {
        case .scalar:
            fields.name = (node.scalar ?? "", node.location)
        case .mapping:
            for (key, value) in node.pairs { readField(key, value, into: &fields) }
            if fields.name == nil {
                error("a step needs a 'name'", at: node.location)
                return nil
            }
        case .sequence:
            error("a step is a name or a mapping with 'name:'", at: node.location)
            return nil
        }
        guard let (name, nameLocation) = fields.name, checkName(name, at: nameLocation, what: "step name") else { return nil }
        guard checkPlacement(fields.phase, scope: fields.scope, repeats: fields.repeats, at: node),
              checkOrder(fields.after, phase: fields.phase) else { return nil }
        if let (id, location) = fields.id, !checkName(id, at: location, what: "step id") { return nil }
        // The manifest's steps of one name share its definition: looked up in the registry once.
        let shared: SharedDefinition
        if let known = sharedDefinitions[name] {
            shared = known
        } else if let definition = registry[name] {
            shared = SharedDefinition(definition)
            sharedDefinitions[name] = shared
        } else {
            let suggestion = NameSuggestion.closest(to: name, among: registry.all.map(\.name))
            error("unknown step '\(name)'", at: nameLocation,
                  notes: suggestion.map { [.init("did you mean '\($0)'?")] } ?? [])
            return nil
        }
        let definition = shared.definition
        let mark = uses.count
        let parameters: any Sendable
        do {
            parameters = try definition.decodeParameters(fields.with, parameterDecoder)
        } catch {
            diagnostics.append(Diagnostic(
                .error, "step '\(name)': \(secrets.redact(error.message))", file: file, at: error.location ?? nameLocation,
                notes: error.notes))
            return nil
        }
        let adopted = ParameterConformances.of(definition.parametersType)
        let warnings = adopted.warnings ? (parameters as? any ParameterWarnings)?.warnings ?? [] : []
        for warning in warnings {
            diagnostics.append(Diagnostic(
                .warning, "step '\(name)': \(warning)", file: file, at: fields.with?.location ?? nameLocation))
        }
        guard let revert = revert(fields.revert, of: definition, name: name, parameters: parameters) else { return nil }
        warnAboutVariablesInShellScripts(of: name, in: [fields.with, fields.revert], since: mark)
        let fileNames = adopted.definitionFiles ? (parameters as? any DefinitionFileParameters)?.definitionFiles ?? [] : []
        let files = fileNames.map { DefinitionFile(name: $0, directory: directory) }
        let unsetVariables = uses.uses(since: mark).compactMap { use -> Diagnostic? in
            guard case .unset(let message) = use.outcome else { return nil }
            return Diagnostic(.error, "step '\(name)': \(message)", file: file, at: use.location)
        }
        let idempotent = fields.idempotent || definition.idempotent || fields.repeats != nil
        let resumable = fields.resumable || definition.resumable
        warnIfNotResumable(phase: fields.phase ?? .preStart, resumable: resumable, idempotent: idempotent, at: nameLocation)
        return ManifestStep(
            id: "\(thresholdText)/\(fields.id?.0 ?? name)", threshold: threshold, name: name,
            description: fields.description, timeout: fields.timeout,
            retries: fields.retries, idempotent: idempotent, resumable: resumable,
            late: fields.late, replaces: fields.replaces.map { Self.fullID($0, thresholdText: thresholdText) },
            repeats: fields.repeats,
            labels: fields.labels, when: fields.when, phase: fields.phase ?? .preStart,
            runsAfterBackground: fields.after != nil, scope: fields.scope ?? .fleet,
            expected: fields.expected, requiresApproval: fields.requires == .approval, location: nameLocation,
            definitionFiles: files, definition: shared, with: fields.with, parameterDecoder: parameterDecoder, revert: revert, secrets: secrets,
            unsetVariables: unsetVariables)
    }

    private struct StepFields {
        var name: (String, SourceLocation)?
        var id: (String, SourceLocation)?
        var with: YAMLNode?
        var timeout: Duration?
        var retries = 0
        var idempotent = false
        var resumable = false
        var description: String?
        var late: LatePolicy?
        var replaces: String?
        var labels: [String] = []
        var when: StepCondition?
        var revert: YAMLNode?
        var repeats: RepeatPolicy?
        var phase: StepPhase?
        /// `after:` and where it is written.
        var after: (StepPhase, SourceLocation)?
        var scope: StepScope?
        var expected: Duration?
        var requires: StepRequirement?
    }

    private mutating func readField(_ key: YAMLNode, _ value: YAMLNode, into fields: inout StepFields) {
        switch key.scalar {
        case "name": fields.name = string(value, what: "'name'").map { ($0, value.location) }
        case "id": fields.id = string(value, what: "'id'").map { ($0, value.location) }
        case "with":
            if value.kind == .mapping {
                fields.with = value
            } else if value.coreValue != .null {
                error("'with' must be a mapping of parameters", at: value)
            }
        case "timeout": fields.timeout = positiveDuration(value, key: "timeout", what: "a timeout")
        case "expected": fields.expected = positiveDuration(value, key: "expected", what: "an expected duration")
        case "requires": fields.requires = requirement(value)
        case "retries":
            guard let text = string(value, what: "'retries'") else { return }
            if case .int(let count) = value.coreValue, (0...100).contains(count) {
                fields.retries = count
            } else {
                error("invalid retries '\(text)': expected a whole number from 0 to 100", at: value)
            }
        case "idempotent": if let flag = bool(value, key: "idempotent") { fields.idempotent = flag }
        case "resumable": if let flag = bool(value, key: "resumable") { fields.resumable = flag }
        case "description": fields.description = string(value, what: "'description'")
        case "late": fields.late = latePolicy(value)
        case "replaces":
            guard let text = string(value, what: "'replaces'") else { return }
            if checkReplacedID(text, at: value) { fields.replaces = text }
        case "labels": fields.labels = labels(value)
        case "when": fields.when = condition(value)
        case "revert":
            if value.kind == .mapping || Self.isNone(value) {
                fields.revert = value
            } else {
                error("'revert' must be a mapping of parameters, like 'with', or none", at: value)
            }
        case "repeat": fields.repeats = repeatPolicy(value)
        case "phase": fields.phase = phase(value)
        case "after": fields.after = after(value).map { ($0, value.location) }
        case "scope": fields.scope = scope(value)
        default: unknownKey(key, known: Self.stepKeys, in: "a step")
        }
    }

    // MARK: - Variables and secrets

    /// `variables:`: the names of the variables whose `${…}` is substituted.
    private mutating func variableNames(_ node: YAMLNode) {
        guard node.kind == .sequence else {
            error("'variables' is a list of variable names", at: node)
            return
        }
        for element in node.elements {
            guard let name = string(element, what: "a variable's name") else { continue }
            declare(name, at: element)
        }
    }

    /// Declares `name` a variable; false (with an error) when it is not a name Milepost substitutes.
    @discardableResult
    private mutating func declare(_ name: String, at node: YAMLNode) -> Bool {
        guard VariableSubstitution.isName(name) else {
            error(VariableSubstitution.invalidName("'\(name)'"), at: node)
            return false
        }
        guard !name.hasPrefix(VariableSubstitution.stepVariablePrefix) else {
            error("'\(name)' is a variable Milepost sets for the step, which its shell expands; it cannot be declared", at: node)
            return false
        }
        uses.declare(name)
        return true
    }

    /// In a manifest without `variables:` (written before only declared variables were
    /// substituted), a warning at each `${NAME}`, `${NAME:-…}` or `${NAME:?…}` kept for the shell.
    private mutating func warnAboutUndeclaredVariables() {
        for use in uses.uses(since: 0) where use.outcome == .shell {
            let inside = use.written.dropFirst(2).dropLast()
            let name = inside.prefix(while: VariableSubstitution.isNameCharacter)
            let operation = inside.dropFirst(name.count)
            guard VariableSubstitution.isName(String(name)), !name.hasPrefix(VariableSubstitution.stepVariablePrefix),
                  operation.isEmpty || operation.hasPrefix(":-") || operation.hasPrefix(":?") else { continue }
            diagnostics.append(Diagnostic(
                .warning,
                "'\(use.written)' is kept as written for the step's shell: Milepost substitutes only the variables "
                    + "declared under 'variables:' or 'secrets:'; declare \(name) there to substitute it when the "
                    + "manifest is loaded, or write 'variables: []' to say the manifest substitutes none",
                file: file, at: use.location))
        }
    }

    /// `secrets:`: the names of the variables whose values are secrets.
    private mutating func secretNames(_ node: YAMLNode) {
        guard node.kind == .sequence else {
            error("'secrets' is a list of variable names", at: node)
            return
        }
        for element in node.elements {
            guard let name = string(element, what: "a secret's name"), declare(name, at: element) else { continue }
            guard let value = variables?.values[name] else { continue }
            if let problem = SecretValues.unmaskable(value, name: name) {
                error(problem, at: element)
            } else {
                secrets.insert(value)
            }
        }
    }

    // MARK: - Helpers

    mutating func string(_ node: YAMLNode, what: @autoclosure () -> String) -> String? {
        guard node.kind == .scalar, let text = node.scalar else {
            error("\(what()) must be a single value", at: node)
            return nil
        }
        return text
    }

    /// A duration longer than zero under `key` (`timeout:`, `expected:`); nil (and an error) otherwise.
    private mutating func positiveDuration(_ node: YAMLNode, key: String, what: String) -> Duration? {
        guard let text = string(node, what: "'\(key)'") else { return nil }
        do {
            let duration = try DurationText.read(text)
            guard duration > .zero else {
                error("invalid \(key) '\(text)': \(what) must be longer than zero", at: node)
                return nil
            }
            return duration
        } catch let invalid {
            error("invalid \(key) '\(text)': \(invalid)", at: node)
            return nil
        }
    }

    /// A `true` or `false` scalar under `key`; nil (and an error) otherwise.
    private mutating func bool(_ node: YAMLNode, key: String) -> Bool? {
        guard let text = string(node, what: "'\(key)'") else { return nil }
        guard case .bool(let flag) = node.coreValue else {
            error("invalid \(key) '\(text)': expected true or false", at: node)
            return nil
        }
        return flag
    }

    mutating func version(_ text: String, at node: YAMLNode) -> Version? {
        do {
            return try Version(parsing: text)
        } catch {
            self.error(error.description, at: node)
            return nil
        }
    }

    private mutating func checkName(_ name: String, at location: SourceLocation, what: String) -> Bool {
        guard StepName.isValid(name) else {
            error("invalid \(what) '\(name)': use letters, digits, '_', '.', ':' and '-', starting with a letter or '_'",
                  at: location)
            return false
        }
        return true
    }

    private mutating func unknownKey(_ key: YAMLNode, known: [String], in place: String) {
        let name = key.scalar ?? "?"
        let suggestion = NameSuggestion.closest(to: name, among: known)
        error("unknown key '\(name)' in \(place)", at: key,
              notes: [.init(suggestion.map { "did you mean '\($0)'?" } ?? "expected one of: \(known.joined(separator: ", "))")])
    }

    mutating func error(_ message: String, at location: SourceLocation, notes: [YAMLError.Note] = []) {
        diagnostics.append(Diagnostic(.error, message, file: file, at: location, notes: notes))
    }

    /// A warning at `location`: the manifest is still valid.
    mutating func warning(_ message: String, at location: SourceLocation, notes: [YAMLError.Note] = []) {
        diagnostics.append(Diagnostic(.warning, message, file: file, at: location, notes: notes))
    }

    /// An error at `node`, also pointing at the aliases or merge keys that brought it in.
    mutating func error(_ message: String, at node: YAMLNode, notes: [YAMLError.Note] = []) {
        error(message, at: node.location, notes: notes + node.useNotes)
    }
}
