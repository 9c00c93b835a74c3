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

/// A module whose steps use what the application provides when it builds its registry at run
/// time — its data directory, its database handle — instead of finding it from the manifest:
/// production code hands them its own, a test its scenario's (`MilepostTesting`'s
/// `UpgradeScenario` builds a registry per scenario).
///
/// ```swift
/// enum NotesSteps: DependentStepPlugin {
///     static func register(in registry: inout StepRegistry, using notes: NotesDatabase) {
///         registry.register("removeEmptyNotes") { context in try await notes.removeEmpty() }
///     }
/// }
/// let registry = StepRegistry().installing(NotesSteps.self, using: notes)
/// ```
public protocol DependentStepPlugin {
    /// What the steps need from the application: a value, or a struct of several.
    associatedtype Dependencies: Sendable
    /// A prefix for every step the plugin registers (`search` → `search:reindex`), or nil for none.
    static var namespace: String? { get }
    /// Registers the plugin's steps, which keep what they need of `dependencies`.
    static func register(in registry: inout StepRegistry, using dependencies: Dependencies)
}

extension DependentStepPlugin {
    public static var namespace: String? { nil }
}

/// A plugin that ships with Milepost (`exec`, `sql`): its steps are there for every manifest, so
/// `validate --strict` never reports them as unused.
package protocol BuiltinStepPlugin: StepPlugin {}
