import Glibc

// milepost-bench: the in-process benchmarks of docs/performance.md. Each prints `key value` lines
// that benchmarks/run.sh gathers into its table.
//
//   milepost-bench generate BYTES FILE      a manifest of `exec` steps of about BYTES bytes
//   milepost-bench load FILE ITERATIONS     Manifest.load: median time and MB/s
//   milepost-bench load-memory FILE         Manifest.load once: peak RSS above the process baseline
//   milepost-bench plan STEPS ITERATIONS    Planner.plan over STEPS steps, stored version in the middle
//   milepost-bench checkpoint DIR STEPS     Runner.run of STEPS no-op steps in a file store in DIR

let arguments = Array(CommandLine.arguments.dropFirst())

/// Prints `message` on stderr and exits with `status`.
func fail(_ message: String, status: Int32) -> Never {
    var line = message + "\n"
    line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    exit(status)
}

func usage() -> Never {
    fail("usage: milepost-bench generate|load|load-memory|plan|checkpoint ARGS (see main.swift)", status: 64)
}

func integer(_ index: Int) -> Int {
    guard index < arguments.count, let value = Int(arguments[index]) else { usage() }
    return value
}

func argument(_ index: Int) -> String {
    guard index < arguments.count else { usage() }
    return arguments[index]
}

do {
    switch arguments.first {
    case "generate": try GeneratedManifest.write(bytes: integer(1), to: argument(2))
    case "load": try LoadBenchmark.time(path: argument(1), iterations: integer(2))
    case "load-memory": try LoadBenchmark.peakMemory(path: argument(1))
    case "plan": try PlanBenchmark.run(steps: integer(1), iterations: integer(2))
    case "checkpoint": try await CheckpointBenchmark.run(directory: argument(1), steps: integer(2))
    default: usage()
    }
} catch {
    fail("milepost-bench: \(error)", status: 1)
}
