/// The steps every stock `milepost` binary has.
public enum BuiltinSteps: BuiltinStepPlugin {
    public static func register(in registry: inout StepRegistry) {
        registry.register(
            "exec", parameters: ExecStep.Parameters.self,
            description: "Run a program: with: {command: [prog, arg...], env: {K: V}, cwd: dir}",
            ExecStep.run)
    }
}
