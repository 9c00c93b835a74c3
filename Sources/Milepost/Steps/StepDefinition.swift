import MilepostYAML

/// A registered step: its name, its metadata, how to decode its parameters and how to run it.
public struct StepDefinition: Sendable {
    /// The name manifests use (`exec`, `search:reindex`).
    public internal(set) var name: String
    public let description: String?
    /// Safe to run again after an interruption.
    public let idempotent: Bool
    /// Commits cursors and can go on from its last one: an interrupted attempt that committed a
    /// cursor resumes there on the next run, without `resolve`.
    public let resumable: Bool
    /// A label the application bumps when the step's code changes, so `status` can report drift.
    public let revision: String?
    /// The manifest may give the step a revert: `revert:` holds parameters of the step's own type,
    /// and the revert is the step's body run with them (`exec`: `revert: {command: […]}`).
    public let revertsWithManifestParameters: Bool
    /// Has a revert registered in code (`StepRegistry.register(…, revert:)`).
    public var hasRegisteredRevert: Bool { revert != nil }
    /// The Swift name of the parameter type, for messages.
    public var parametersTypeName: String { String(describing: parametersType) }

    /// Kept as a type and named only when asked: `String(describing:)` of a type costs a scan of
    /// the runtime's conformance tables, paid by every process start that builds a registry.
    let parametersType: any (Decodable & Sendable).Type
    /// The name of the plugin that contributed the step, or nil when it was registered directly.
    public var plugin: String? { contributor.map { String(describing: $0.type) } }
    /// Contributed by a plugin that ships with Milepost (`BuiltinStepPlugin`).
    package var isBuiltIn: Bool { contributor.map { $0.type is any BuiltinStepPlugin.Type } ?? false }

    /// Kept as a type for the same reason as `parametersType`; the dynamic cast of `isBuiltIn` is
    /// such a scan too.
    private var contributor: PluginType?

    /// A plugin's type (`StepPlugin`, `DependentStepPlugin`). A metatype is immutable, so sharing
    /// it across threads is safe even though neither protocol requires `Sendable` of its conformers.
    private struct PluginType: @unchecked Sendable {
        let type: Any.Type
    }

    /// Decodes the step's `with:` node with the given decoder (which substitutes variables).
    let decodeParameters: @Sendable (YAMLNode?, YAMLNodeDecoder) throws(YAMLError) -> any Sendable
    private(set) var body: @Sendable (StepInvocation, any Sendable) async throws -> Void
    /// The revert registered in code, handed the step's own parameters; nil without one.
    let revert: (@Sendable (StepInvocation, any Sendable) async throws -> Void)?

    init<Parameters: Decodable & Sendable>(
        name: String, parameters: Parameters.Type, description: String?, idempotent: Bool, resumable: Bool = false,
        revision: String?, revertsWithManifestParameters: Bool = false,
        body: @escaping @Sendable (StepContext<Parameters>) async throws -> Void,
        revert: (@Sendable (StepContext<Parameters>) async throws -> Void)? = nil
    ) {
        self.name = name
        self.description = description
        self.idempotent = idempotent
        self.resumable = resumable
        self.revision = revision
        self.revertsWithManifestParameters = revertsWithManifestParameters
        self.parametersType = parameters
        self.decodeParameters = { node, decoder throws(YAMLError) in
            try decoder.decode(Parameters.self, from: node)
        }
        self.body = Self.typed(body)
        self.revert = revert.map(Self.typed)
    }

    /// `closure` taking what the runner hands over: the invocation and the parameters the manifest
    /// decoded with `decodeParameters` (so the cast holds).
    private static func typed<Parameters: Sendable>(
        _ closure: @escaping @Sendable (StepContext<Parameters>) async throws -> Void
    ) -> @Sendable (StepInvocation, any Sendable) async throws -> Void {
        { invocation, parameters in
            let typed = parameters as! Parameters
            try await closure(invocation.context(with: typed))
        }
    }

    /// This definition, calling `observe` with the step's id and its decoded parameters each time
    /// an attempt's body starts (`MilepostTesting` records a run's calls this way).
    package func observing(_ observe: @escaping @Sendable (_ id: String, _ parameters: any Sendable) -> Void) -> StepDefinition {
        var copy = self
        let body = self.body
        copy.body = { invocation, parameters in
            observe(invocation.id, parameters)
            try await body(invocation, parameters)
        }
        return copy
    }

    /// The definition as `plugin` contributes it: under `namespace`, the plugin's, if it has one.
    func contributed(by plugin: Any.Type, namespace: String?) -> StepDefinition {
        var copy = self
        copy.name = namespace.map { "\($0):\(name)" } ?? name
        copy.contributor = PluginType(type: plugin)
        return copy
    }
}
