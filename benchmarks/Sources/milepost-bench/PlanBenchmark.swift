import Milepost
import MilepostYAML

/// Planning: `Planner.plan` over a manifest of `steps` no-op steps, with the stored version in the
/// middle and every step at or below it recorded as completed (what a long-lived store holds).
enum PlanBenchmark {
    static func run(steps: Int, iterations: Int) throws {
        var registry = StepRegistry()
        registry.register("noop") { _ in }
        let source = ManifestSource(path: "plan.yaml", bytes: GeneratedManifest.noop(steps: steps))
        var manifest: Manifest?
        let loadMs = try Measure.milliseconds {
            manifest = try Manifest.parse(source, registry: registry, limits: LoadBenchmark.limits)
        }
        guard let manifest else { return }
        let middle = steps / 2
        let state = StoredState(
            app: nil, version: try Version(parsing: "1.\(middle)"),
            completed: (1...middle).map { CompletedStep(id: "1.\($0)/noop", at: .init(millisecondsSince1970: 0), run: "", fingerprint: "") },
            updatedAt: .init(millisecondsSince1970: 0))
        let from = state.version
        let to = try Version(parsing: "1.\(steps)")
        let before = Measure.peakResidentKiB()
        var pending = 0
        let median = Measure.medianMilliseconds(iterations) {
            let plan = Planner.plan(manifest, state: state, from: from, origin: .stored, to: to)
            pending = plan.pending.count
        }
        Measure.report("steps", Double(manifest.steps.count))
        Measure.report("pending", Double(pending))
        Measure.report("manifest_parse_ms", loadMs)
        Measure.report("median_ms", median)
        Measure.report("peak_above_baseline_kib", Double(Measure.peakResidentKiB() - before))
    }
}
