/// The steps every stock `milepost` binary has.
public enum BuiltinSteps: BuiltinStepPlugin {
    public static func register(in registry: inout StepRegistry) {
        registry.register(
            "exec", parameters: ExecStep.Parameters.self,
            description: "Run a program: with: {command: [prog, arg...], env: {K: V}, cwd: dir}",
            revertsWithManifestParameters: true, ExecStep.run)
    }
}

// The built-ins know the registry, never the reverse: the registry is the mechanism, the
// built-ins are its first users.
extension StepRegistry {
    /// A registry with Milepost's built-in steps (`exec`).
    public static var standard: StepRegistry { StepRegistry().installing(BuiltinSteps.self) }
}
