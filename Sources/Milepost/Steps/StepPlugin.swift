/// A module that contributes steps. An application composes its registry from plugins:
///
/// ```swift
/// enum SearchSteps: StepPlugin {
///     static let namespace: String? = "search"
///     static func register(in registry: inout StepRegistry) {
///         registry.register("reindex") { context in … }   // manifests say `search:reindex`
///     }
/// }
/// let registry = StepRegistry.standard.installing(SearchSteps.self)
/// ```
public protocol StepPlugin {
    /// A prefix for every step the plugin registers (`search` → `search:reindex`), or nil for none.
    static var namespace: String? { get }
    /// Registers the plugin's steps.
    static func register(in registry: inout StepRegistry)
}

extension StepPlugin {
    public static var namespace: String? { nil }
}

/// A plugin that ships with Milepost (`exec`, `sql`): its steps are there for every manifest, so
/// `validate --strict` never reports them as unused.
package protocol BuiltinStepPlugin: StepPlugin {}
