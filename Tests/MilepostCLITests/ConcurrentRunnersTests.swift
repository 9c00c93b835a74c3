import Foundation
import Testing

/// Many replicas start together on one file store: every step runs exactly once, every runner
/// exits 0, and the waiters re-read the state after the lock and find the work done.
@Suite struct ConcurrentRunnersTests {
    @Test func eightRunnersStartedAtOnceRunEachStepOnce() throws {
        let work = try WorkDirectory()
        try work.write("""
            migrations:
              1:
                - name: exec
                  with: {command: [sh, -c, 'echo "$MILEPOST_STEP $$" >> ran.txt; sleep 0.3']}
              2:
                - name: exec
                  with: {command: [sh, -c, 'echo "$MILEPOST_STEP $$" >> ran.txt']}
            """, to: "milepost.yaml")
        let runners = try (0..<8).map { _ in try work.milepost.start(["run", "--to", "2", "--format", "json"]) }
        let results = runners.map { MilepostBinary.finish($0.process, $0.stdout, $0.stderr) }

        #expect(results.map(\.status) == Array(repeating: 0, count: 8), "\(results.map(\.stderr))")
        let ran = try work.read("ran.txt").split(separator: "\n").map { $0.split(separator: " ")[0] }
        #expect(ran == ["1/exec", "2/exec"])
        let outcomes = try results.map { result -> (String, Bool) in
            let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            return (object["outcome"] as? String ?? "?", object["done_by_another_runner"] as? Bool ?? false)
        }
        #expect(outcomes.filter { $0.0 == "succeeded" }.count == 1, "\(outcomes)")
        // The others either waited for the lock and re-read the state, or started after it was done.
        #expect(outcomes.filter { $0.0 == "up-to-date" }.count == 7, "\(outcomes)")
        #expect(outcomes.contains { $0.1 }, "no runner reported waiting for another: \(outcomes)")
        let journal = try work.read(".milepost/journal.jsonl")
        #expect(journal.components(separatedBy: #""event":"run-started""#).count - 1 == 1)
    }
}
