extension Manifest {
    /// A file-level warning for each step `registry` has that no step of this manifest uses (what
    /// `validate --strict` adds). Milepost's built-in steps, such as `exec` and `sql`, are there for
    /// every manifest and are not listed.
    public func unusedSteps(in registry: StepRegistry) -> [Diagnostic] {
        let used = Set(steps.map(\.name))
        return registry.all.filter { !used.contains($0.name) && !$0.isBuiltIn }.map {
            Diagnostic(.warning, "the registered step '\($0.name)' is not used by this manifest", file: source.path, at: nil)
        }
    }
}
