import Milepost
import MilepostYAML

/// Manifest loading: read + parse + compose + validate (`Manifest.load`) with the stock registry.
enum LoadBenchmark {
    static let limits = YAMLLimits(maxDocumentBytes: 64 << 20)

    static func time(path: String, iterations: Int) throws {
        let registry = StepRegistry.standard
        var size = 0
        var steps = 0
        let median = try Measure.medianMilliseconds(iterations) {
            let manifest = try measured(path: path, registry: registry)
            size = manifest.source.bytes.count
            steps = manifest.steps.count
        }
        Measure.report("bytes", Double(size))
        Measure.report("steps", Double(steps))
        Measure.report("median_ms", median)
        Measure.report("mb_per_s", Double(size) / 1e6 / (median / 1e3))
    }

    /// One load: what `benchmarks/run.sh` counts instructions of (callgrind's `--toggle-collect`
    /// on this function), so that it is not inlined.
    @inline(never)
    static func measured(path: String, registry: StepRegistry) throws -> Manifest {
        try Manifest.load(path: path, registry: registry, limits: limits)
    }

    /// Loads once in a fresh process; the peak RSS above what the process had before.
    static func peakMemory(path: String) throws {
        let registry = StepRegistry.standard
        let before = Measure.peakResidentKiB()
        let manifest = try Manifest.load(path: path, registry: registry, limits: limits)
        let after = Measure.peakResidentKiB()
        withExtendedLifetime(manifest) {}
        Measure.report("baseline_kib", Double(before))
        Measure.report("peak_above_baseline_kib", Double(after - before))
    }
}
