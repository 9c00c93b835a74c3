import Foundation
@testable import MilepostCLI
import Testing

/// The pre-start path answers an up-to-date `run` before the argument parser: it must say and do
/// exactly what the full path does, and step aside whenever it is not sure.
@Suite struct PreStartTests {
    /// A store already at 2.1 (one step ran), and the manifest that got it there.
    static func upToDateStore() throws -> WorkDirectory {
        let work = try WorkDirectory()
        try work.write(ExitCodeTests.manifest, to: "milepost.yaml")
        let first = try work.milepost.run("run", "--to", "2.1")
        #expect(first.status == 0, "\(first.stderr)")
        return work
    }

    @Test(arguments: ["text", "json"])
    func answersLikeTheFullPath(format: String) throws {
        let work = try Self.upToDateStore()
        let fast = try work.milepost.run("run", "--to", "2.1", "--format", format)
        // A repeated option is left to ArgumentParser (the last value wins there).
        let full = try work.milepost.run("run", "--to", "1.0", "--to=2.1", "--format", format)
        #expect(fast.status == 0)
        #expect(full.status == 0)
        #expect(fast.stdout == full.stdout)
        #expect(fast.stderr == full.stderr)
        #expect(format == "json" ? fast.stdout.contains("\"outcome\" : \"up-to-date\"") : fast.stderr == "milepost: demo up to date at 2.1\n",
                "\(fast.stdout)\(fast.stderr)")
    }

    /// The state and the manifest's bytes (its digest, `ManifestDigestTests`), nothing else:
    /// the manifest moved elsewhere with the same bytes answers the same.
    @Test func readsOnlyTheStateAndTheManifestsBytes() throws {
        let work = try Self.upToDateStore()
        let journal = try work.read(".milepost/journal.jsonl")
        try FileManager.default.moveItem(atPath: work.path + "/milepost.yaml", toPath: work.path + "/moved.yaml")
        var milepost = work.milepost
        milepost.environment = ["MILEPOST_TO": "2.1", "MILEPOST_STORE": ".milepost"]
        let result = try milepost.run("run", "--manifest=moved.yaml", "--lock-timeout", "1s", "--allow-downgrade", "--phase", "pre-start")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("up to date at 2.1"))
        #expect(try work.read(".milepost/journal.jsonl") == journal)
    }

    @Test(arguments: [
        ["run", "--to", "2.1", "--format", "markdown"],
        ["run", "--to", "2.x"],
        ["run", "--to", "2.1", "--lock-timeout", "soon"],
        ["run", "--to", "2.1", "--allow-downgrade=yes"],
        ["run", "--to", "2.1", "--phase", "later"],
    ])
    func leavesBadArgumentsToTheParser(arguments: [String]) throws {
        let work = try Self.upToDateStore()
        let result = try work.milepost.run(arguments)
        #expect(result.status == 64, "\(result.stderr)")
    }

    @Test func leavesPendingWorkToTheFullPath() throws {
        let work = try Self.upToDateStore()
        let result = try work.milepost.run("run", "--to", "2.7")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try work.read("ran.txt") == "2.1/touch 1.0 2.1\n2.7/later\n")
    }

    /// The fast path knows every option of `run` by the name the parser gives it: each is either
    /// taken (and checked) or declined, and the fast path knows no option `run` does not have. An
    /// option added to `run`, or renamed in one place only, fails here.
    @Test func knowsExactlyTheOptionsOfRun() throws {
        let work = try WorkDirectory()
        let dump = try work.milepost.run("run", "--experimental-dump-help")
        #expect(dump.status == 0, "\(dump.stderr)")
        let command = try #require(try ReliabilityFixture.object(dump.stdout)["command"] as? [String: Any])
        let arguments = try #require(command["arguments"] as? [[String: Any]])
        let parsed = Set(arguments.flatMap { ($0["names"] as? [[String: Any]]) ?? [] }
            .filter { $0["kind"] as? String == "long" }.compactMap { $0["name"] as? String })
            .subtracting(["help", "version"])
        let fastPath = Set(PreStart.options.map(\.name)).union(PreStart.flags)
        #expect(fastPath.isDisjoint(with: PreStart.declined))
        #expect(fastPath.union(PreStart.declined) == parsed)
        #expect(Set(PreStart.names).count == PreStart.names.count, "an option is listed twice: \(PreStart.names)")
    }

    /// Each option's variable: `MILEPOST_`, the name in upper case, underscores for dashes.
    @Test func variablesAreTheNamesInUpperCase() {
        for name in PreStart.names {
            #expect(Setting.variable(name) == "MILEPOST_" + name.uppercased().replacingOccurrences(of: "-", with: "_"))
        }
        #expect(Setting.variable("lock-timeout") == "MILEPOST_LOCK_TIMEOUT")
    }
}
