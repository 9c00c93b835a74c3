/// Maps step names to Swift closures. A value type: build it once, hand it to the runner.
///
/// ```swift
/// var registry = StepRegistry.standard          // with the built-in `exec`
/// registry.register("removeEmptyDailys", idempotent: true) { context in
///     try await Dailys.removeEmpty(logger: context.logger)
/// }
/// struct Reindex: Decodable, Sendable { var table: String; var batch: Int }
/// registry.register("reindexSearch", parameters: Reindex.self) { context in
///     try await Search.reindex(context.parameters.table, batch: context.parameters.batch)
/// }
/// ```
public struct StepRegistry: Sendable {
    private var definitions: [String: StepDefinition] = [:]

    /// An empty registry.
    public init() {}

    // MARK: - Registering

    /// Registers a step that takes no parameters.
    /// - parameters:
    ///   - name: the name manifests use, `[A-Za-z_][A-Za-z0-9_.:-]*`.
    ///   - description: one line for `milepost steps`.
    ///   - idempotent: safe to run again after an interruption (docs/manifest.md).
    ///   - resumable: goes on at its last cursor after an interruption, without `resolve`.
    ///   - revision: a label bumped when the step's code changes, so `status` reports steps that
    ///     ran with an older one.
    ///   - body: the step; throwing fails it.
    ///   - revert: undoes the step's work, for `milepost revert` (see the other overload).
    /// - precondition: `name` is valid and not registered yet (a programmer error otherwise).
    public mutating func register(
        _ name: String, description: String? = nil, idempotent: Bool = false, resumable: Bool = false,
        revision: String? = nil, _ body: @escaping @Sendable (StepContext<NoParameters>) async throws -> Void,
        revert: (@Sendable (StepContext<NoParameters>) async throws -> Void)? = nil
    ) {
        register(name, parameters: NoParameters.self, description: description, idempotent: idempotent,
                 resumable: resumable, revision: revision, body, revert: revert)
    }

    /// Registers a step whose `with:` decodes into `Parameters`; decoding errors point at the manifest.
    ///
    /// A step with a `revert` can be undone by `milepost revert --to V` when V is below its threshold;
    /// the revert gets the step's own parameters:
    ///
    /// ```swift
    /// registry.register("addColumn", parameters: Column.self) { context in
    ///     try await db.addColumn(context.parameters.name)
    /// } revert: { context in
    ///     try await db.dropColumn(context.parameters.name)
    /// }
    /// ```
    /// - parameters:
    ///   - name: the name manifests use, `[A-Za-z_][A-Za-z0-9_.:-]*`.
    ///   - parameters: the type the manifest's `with:` decodes into, when the manifest is loaded and
    ///     again when the step runs: its `init(from:)` must give the same value every time.
    ///   - description: one line for `milepost steps`.
    ///   - idempotent: safe to run again after an interruption (docs/manifest.md).
    ///   - resumable: goes on at its last cursor after an interruption, without `resolve`.
    ///   - revision: a label bumped when the step's code changes, so `status` reports steps that
    ///     ran with an older one.
    ///   - revertsWithManifestParameters: the manifest may give the step a revert as `revert:`, with
    ///     parameters of the same type; the revert runs `body` with them (how `exec` reverts).
    ///   - body: the step; throwing fails it.
    ///   - revert: undoes the step's work; nil when it cannot be undone.
    /// - precondition: `name` is valid and not registered yet (a programmer error otherwise).
    public mutating func register<Parameters: Decodable & Sendable>(
        _ name: String, parameters: Parameters.Type, description: String? = nil, idempotent: Bool = false,
        resumable: Bool = false, revision: String? = nil, revertsWithManifestParameters: Bool = false,
        _ body: @escaping @Sendable (StepContext<Parameters>) async throws -> Void,
        revert: (@Sendable (StepContext<Parameters>) async throws -> Void)? = nil
    ) {
        add(StepDefinition(
            name: name, parameters: parameters, description: description, idempotent: idempotent,
            resumable: resumable, revision: revision, revertsWithManifestParameters: revertsWithManifestParameters,
            body: body, revert: revert))
    }

    /// Registers every step of each plugin, under its namespace if it has one.
    /// - precondition: no resulting name is registered yet (a programmer error otherwise).
    public mutating func install(_ plugins: (any StepPlugin.Type)...) {
        install(plugins)
    }

    private mutating func install(_ plugins: [any StepPlugin.Type]) {
        for plugin in plugins {
            var contributed = StepRegistry()
            plugin.register(in: &contributed)
            add(contributed, from: plugin, namespace: plugin.namespace)
        }
    }

    /// Registers every step of `plugin`, under its namespace if it has one, each keeping what it
    /// needs of `dependencies`.
    /// - precondition: no resulting name is registered yet (a programmer error otherwise).
    public mutating func install<Plugin: DependentStepPlugin>(_ plugin: Plugin.Type, using dependencies: Plugin.Dependencies) {
        var contributed = StepRegistry()
        plugin.register(in: &contributed, using: dependencies)
        add(contributed, from: plugin, namespace: plugin.namespace)
    }

    /// Adds the steps a plugin registered in `contributed`, as that plugin contributes them.
    private mutating func add(_ contributed: StepRegistry, from plugin: Any.Type, namespace: String?) {
        for definition in contributed.all {
            add(definition.contributed(by: plugin, namespace: namespace))
        }
    }

    private mutating func add(_ definition: StepDefinition) {
        precondition(
            StepName.isValid(definition.name),
            "Milepost: '\(definition.name)' is not a valid step name (\(StepName.pattern))")
        if let existing = definitions[definition.name] {
            preconditionFailure(
                "Milepost: the step '\(definition.name)' is registered twice "
                    + "(first \(Self.origin(existing)), then \(Self.origin(definition))); "
                    + "register each name once, or give one of the plugins a namespace")
        }
        definitions[definition.name] = definition
    }

    private static func origin(_ definition: StepDefinition) -> String {
        definition.plugin.map { "by the plugin \($0)" } ?? "directly"
    }

    // MARK: - Composing

    /// A copy of the registry with each plugin installed, for building a registry in one expression:
    ///
    /// ```swift
    /// let registry = StepRegistry.standard.installing(ReportSteps.self, SearchSteps.self)
    /// let bare = StepRegistry().installing(ReportSteps.self)   // without the built-in `exec`
    /// ```
    /// - precondition: no resulting name is registered yet (a programmer error otherwise).
    public func installing(_ plugins: (any StepPlugin.Type)...) -> StepRegistry {
        var copy = self
        copy.install(plugins)
        return copy
    }

    /// A copy of the registry with `plugin` installed, its steps keeping what they need of
    /// `dependencies`, which the application provides as it starts:
    ///
    /// ```swift
    /// let registry = StepRegistry().installing(TiTiSteps.self, using: DailyFile(inDataDirectory: dataDirectory))
    /// ```
    /// - precondition: no resulting name is registered yet (a programmer error otherwise).
    public func installing<Plugin: DependentStepPlugin>(_ plugin: Plugin.Type, using dependencies: Plugin.Dependencies) -> StepRegistry {
        var copy = self
        copy.install(plugin, using: dependencies)
        return copy
    }

    // MARK: - Querying

    /// This registry with every step observed (`StepDefinition.observing`).
    package func observing(_ observe: @escaping @Sendable (_ id: String, _ parameters: any Sendable) -> Void) -> StepRegistry {
        var copy = self
        copy.definitions = definitions.mapValues { $0.observing(observe) }
        return copy
    }

    /// The definition registered under `name`.
    public subscript(name: String) -> StepDefinition? { definitions[name] }

    /// Every registered definition, sorted by name.
    public var all: [StepDefinition] { definitions.values.sorted { $0.name < $1.name } }
}
