import Foundation
import Testing

/// Exactly once under races: runners started together on one store run every step once.
@Suite struct ReliabilityRaceTests {
    static let runners = 8

    /// Three steps that append their id to `ran.txt`; the first holds its runner inside the lock
    /// until the file `go` exists, so every other runner is surely waiting for the lock.
    static let manifest = ReliabilityFixture.recordingManifest(
        ["1.0/first", "1.0/second", "2.0/third"],
        then: ["1.0/first": "touch started; while [ ! -e go ]; do sleep 0.05; done"])

    @Test func eightRunnersOnAFreshStoreRunEachStepOnceAndTheWaitersSaySo() throws {
        let work = try WorkDirectory()
        let results = try Self.race(Self.runners, in: work, ["run", "--to", "2.0", "--format", "json"])
        #expect(results.map(\.status) == Array(repeating: 0, count: Self.runners), "\(results.map(\.stderr))")
        #expect(try work.read("ran.txt") == "1.0/first\n1.0/second\n2.0/third\n")

        let documents = try results.map { try ReliabilityFixture.object($0.stdout) }
        let outcomes = documents.map { $0["outcome"] as? String }
        #expect(outcomes.filter { $0 == "succeeded" }.count == 1, "\(outcomes)")
        #expect(outcomes.filter { $0 == "up-to-date" }.count == Self.runners - 1, "\(outcomes)")
        for document in documents where document["outcome"] as? String == "up-to-date" {
            #expect(document["done_by_another_runner"] as? Bool == true)
        }
        let journal = try ReliabilityFixture.journal(in: work)
        #expect(journal.filter { $0["event"] as? String == "step-started" }.count == 3)
        #expect(journal.filter { $0["event"] as? String == "run-started" }.count == 1)
    }

    @Test func aWaiterSaysInTextThatAnotherRunnerDidTheWork() throws {
        let work = try WorkDirectory()
        let results = try Self.race(2, in: work, ["run", "--to", "2.0"])
        #expect(results.map(\.status) == [0, 0], "\(results.map(\.stderr))")
        let waiterText = "up to date at 2.0 (another runner did the work while this one waited)"
        #expect(results.filter { $0.stderr.contains(waiterText) }.count == 1, "\(results.map(\.stderr))")
        #expect(try work.read("ran.txt") == "1.0/first\n1.0/second\n2.0/third\n")
    }

    /// Starts `count` runners at once on a fresh store, lets the one inside the first step finish
    /// only once every runner has the lock file open (has read "no state" and holds or waits for
    /// the lock: the first-run race), and returns their results.
    static func race(_ count: Int, in work: WorkDirectory, _ arguments: [String]) throws -> [MilepostBinary.Result] {
        try work.write(manifest, to: "milepost.yaml")
        let started = try (0..<count).map { _ in try work.milepost.start(arguments) }
        defer { for runner in started where runner.process.isRunning { kill(runner.process.processIdentifier, SIGKILL) } }
        #expect(ReliabilityFixture.eventually { work.exists("started") })
        let lock = URL(fileURLWithPath: work.path + "/.milepost/lock").resolvingSymlinksInPath().path
        #expect(ReliabilityFixture.eventually {
            started.allSatisfy { openFiles(of: $0.process.processIdentifier).contains(lock) }
        })
        try work.write("", to: "go")
        return started.map { MilepostBinary.finish($0.process, $0.stdout, $0.stderr, within: .seconds(120)) }
    }

    /// The paths `pid` has open, from `/proc/PID/fd`.
    static func openFiles(of pid: Int32) -> Set<String> {
        let directory = "/proc/\(pid)/fd"
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return Set(descriptors.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: directory + "/" + $0) })
    }
}
