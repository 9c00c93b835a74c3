import Foundation

/// The manifest the `milepost test` suites crash-test (on the file store and on PostgreSQL): two
/// resumable `exec` steps of two batches each, working in `MILEPOST_TEST_DIR`. `2.0/unsafe`
/// increments `count` before committing each batch's cursor, so a run resumed at the last durable
/// cursor counts a batch twice; it then waits a second, so that a run killed just after a cursor
/// commit has done nothing more. `2.0/safe` marks each batch done in a file of its own, which
/// running it again leaves as it is (it is idempotent too).
package enum CrashTestFixture {
    package static let manifest = """
        app: crash
        baseline: "1.0"
        migrations:
          "2.0":
            - name: exec
              id: unsafe
              resumable: true
              with:
                command: [sh, -c, 'i=${MILEPOST_RESUME_CURSOR:-0}; while [ $i -lt 2 ]; do i=$((i+1)); n=$(cat "$MILEPOST_TEST_DIR/count" 2>/dev/null || echo 0); echo $((n+1)) > "$MILEPOST_TEST_DIR/count"; echo "cursor $i" >&$MILEPOST_CONTROL_FD; sleep 1; done']
            - name: exec
              id: safe
              resumable: true
              idempotent: true
              with:
                command: [sh, -c, 'i=${MILEPOST_RESUME_CURSOR:-0}; while [ $i -lt 2 ]; do i=$((i+1)); echo done > "$MILEPOST_TEST_DIR/batch-$i"; echo "cursor $i" >&$MILEPOST_CONTROL_FD; done']
        """

    /// What `--verify` prints: the count and the files of the scratch directory.
    package static let verify = "cat count; ls"

    /// The commit points of the uninterrupted run, as `milepost test --format json` lists them.
    package static let points = [
        "run-started 1",
        "step-started 1 2.0/unsafe", "process-group 1 2.0/unsafe", "cursor 1 2.0/unsafe", "cursor 2 2.0/unsafe", "step-ended 1 2.0/unsafe",
        "step-started 1 2.0/safe", "process-group 1 2.0/safe", "cursor 1 2.0/safe", "cursor 2 2.0/safe", "step-ended 1 2.0/safe",
        "run-finished 1",
    ]

    /// The crash points whose trials differ: just before each cursor commit of `2.0/unsafe`.
    package static let unsafe = ["before cursor 1 2.0/unsafe", "before cursor 2 2.0/unsafe"]
}

/// The parts of `milepost test --format json` the suites check.
package struct CrashTestDocument: Decodable {
    package struct Point: Decodable {
        package var kind: String
        package var step: String?
        package var number: Int

        /// `cursor 1 2.0/unsafe`.
        package var line: String { "\(kind) \(number)" + (step.map { " " + $0 } ?? "") }
    }

    package struct Trial: Decodable {
        package var moment: String
        package var point: Point
        package var reached: Bool
        package var killedBySignal: Int32?
        package var nextRun: String?
        package var resolved: Bool?
        package var difference: String?
        package var agrees: Bool
        package var previousRelease: PreviousRelease?

        /// `before cursor 1 2.0/unsafe`.
        package var line: String { "\(moment) \(point.line)" }
    }

    package struct PreviousRelease: Decodable {
        package var expected: String
        package var exitCode: Int32
        package var agrees: Bool
    }

    package struct Finding: Decodable {
        package var severity: String
        package var step: String?
        package var message: String
    }

    package struct Path: Decodable {
        package var from: String
        package var commitPoints: [Point]
        package var trials: [Trial]
        package var findings: [Finding]
        package var freshInstallDifference: String?
        package var agrees: Bool
    }

    /// The document `milepost test --format json` printed.
    package init(json: String) throws {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        self = try decoder.decode(CrashTestDocument.self, from: Data(json.utf8))
    }

    package var command: String
    package var seed: UInt64
    package var paths: [Path]
    package var leftOnServer: [String]?
    package var agrees: Bool
    package var exitCode: Int32
}
