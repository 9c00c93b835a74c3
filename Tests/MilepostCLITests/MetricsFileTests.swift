import Foundation
import Testing

/// `run --metrics-file`: the run's metrics in Prometheus text format, accepted by `promtool check
/// metrics` (Debian `prometheus`), for node_exporter's textfile collector.
@Suite struct MetricsFileTests {
    static let promtool = ["/usr/bin/promtool", "/usr/local/bin/promtool"].first { FileManager.default.isExecutableFile(atPath: $0) }
    static let missing: Comment = "promtool is not installed (Debian: apt-get install prometheus)"

    static let manifest = GoldenTests.execSteps([
        (threshold: "1.1", id: "first", command: "['true']"), (threshold: "1.2", id: "second", command: "['true']"),
    ])

    /// Runs promtool's metrics linter on `file`.
    static func check(_ file: String) throws -> (status: Int32, output: String) {
        try CombinedOutput.run(try #require(promtool), ["check", "metrics"],
                               input: try FileHandle(forReadingFrom: URL(fileURLWithPath: file)))
    }

    @Test(.enabled(if: promtool != nil, missing))
    func aRunWritesMetricsPromtoolAccepts() throws {
        let work = try WorkDirectory()
        try work.write(Self.manifest, to: "milepost.yaml")
        let result = try work.milepost.run("run", "--to", "1.2", "--metrics-file", "milepost.prom")
        #expect(result.status == 0, "\(result.stderr)")
        let text = try work.read("milepost.prom")
        for line in [
            #"# HELP milepost_run_duration_seconds "#,
            #"# TYPE milepost_run_duration_seconds histogram"#,
            #"milepost_run_duration_seconds_count{app="demo",outcome="succeeded"} 1"#,
            #"milepost_step_attempts_total{app="demo",step="1.1/first",outcome="succeeded",phase="pre-start"} 1"#,
            #"milepost_step_attempts_total{app="demo",step="1.2/second",outcome="succeeded",phase="pre-start"} 1"#,
            #"milepost_step_duration_seconds_count{app="demo",step="1.2/second",outcome="succeeded",phase="pre-start"} 1"#,
            #"milepost_lock_wait_seconds_count{store="file",outcome="acquired"} 1"#,
            #"milepost_pending_steps{app="demo"} 0"#,
            #"milepost_stored_version{app="demo",version="1.2"} 1"#,
        ] {
            #expect(text.contains(line), "\(line) in:\n\(text)")
        }
        let check = try Self.check(work.path + "/milepost.prom")
        #expect(check.status == 0, "\(check.output)")
        // Replaced atomically: no temp file left next to it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: work.path).filter { $0.contains(".tmp.") } == [])
    }

    /// An up-to-date run with --metrics-file leaves the fast path and still writes the stored version.
    @Test(.enabled(if: promtool != nil, missing))
    func anUpToDateRunWritesTheStoredVersion() throws {
        let work = try WorkDirectory()
        try work.write(Self.manifest, to: "milepost.yaml")
        #expect(try work.milepost.run("run", "--to", "1.2").status == 0)
        let result = try work.milepost.run("run", "--to", "1.2", "--metrics-file", work.path + "/up.prom")
        #expect(result.status == 0, "\(result.stderr)")
        let text = try work.read("up.prom")
        #expect(text.contains(#"milepost_stored_version{app="demo",version="1.2"} 1"#), "\(text)")
        #expect(text.contains(#"milepost_run_duration_seconds_count{app="demo",outcome="up-to-date"} 1"#), "\(text)")
        #expect(try Self.check(work.path + "/up.prom").status == 0)
    }

    /// A failed step: its failed attempt is counted, the stored version stays, one step stays pending.
    @Test func aFailedRunRecordsTheFailure() throws {
        let work = try WorkDirectory()
        try work.write(GoldenTests.execSteps([
            (threshold: "1.1", id: "first", command: "['true']"), (threshold: "1.2", id: "second", command: "['false']"),
        ]), to: "milepost.yaml")
        let result = try work.milepost.run("run", "--to", "1.2", "--metrics-file", "m.prom")
        #expect(result.status == 1, "\(result.stderr)")
        let text = try work.read("m.prom")
        for line in [
            #"milepost_step_attempts_total{app="demo",step="1.2/second",outcome="failed",phase="pre-start"} 1"#,
            #"milepost_run_duration_seconds_count{app="demo",outcome="failed"} 1"#,
            #"milepost_pending_steps{app="demo"} 1"#,
        ] {
            #expect(text.contains(line), "\(line) in:\n\(text)")
        }
        #expect(text.contains(#"milepost_stored_version{app="demo",version="1.2"}"#) == false)
    }

    /// A metrics file that cannot be written is a warning; the run's outcome and exit code stand.
    @Test func anUnwritableMetricsFileIsAWarning() throws {
        let work = try WorkDirectory()
        try work.write(Self.manifest, to: "milepost.yaml")
        let result = try work.milepost.run("run", "--to", "1.2", "--metrics-file", "missing-directory/m.prom")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("warning: could not write the metrics file missing-directory/m.prom: open: No such file or directory"), "\(result.stderr)")
    }
}
