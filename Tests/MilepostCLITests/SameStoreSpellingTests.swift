import Foundation
import Testing

/// One store named twice under two spellings (`./A` and `A`, a link to it, `sqlite:./x.db` and
/// `sqlite:///abs/x.db`): a host store that is the fleet store, and a `store copy` onto its own
/// source, are refused at once (exit 64), instead of waiting the whole lock timeout for this very
/// process's own lock (exit 75).
@Suite struct SameStoreSpellingTests {
    /// The same store as `first`, spelled otherwise (`work` holds a link `link` to `.milepost` and
    /// `link.db` to `app.db`).
    static func spellings(in work: WorkDirectory) -> [(first: String, second: String)] {
        [
            (".milepost", "./.milepost"),
            (".milepost", "link"),
            (".milepost", work.path + "/sub/../.milepost/"),
            ("sqlite:app.db", "sqlite:./app.db"),
            ("sqlite:app.db", "sqlite://" + work.path + "/app.db"),
            ("sqlite:app.db", "sqlite:link.db"),
        ]
    }

    static func prepare(_ work: WorkDirectory) throws {
        try work.write(ReliabilityFixture.recordingManifest(["1.0/a"]).replacingOccurrences(of: "id: a,", with: "id: a, scope: host,"), to: "milepost.yaml")
        try FileManager.default.createDirectory(atPath: work.path + "/sub", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: work.path + "/link", withDestinationPath: ".milepost")
        try FileManager.default.createSymbolicLink(atPath: work.path + "/link.db", withDestinationPath: "app.db")
    }

    @Test func aHostStoreThatIsTheFleetStoreIsRefusedAtOnce() throws {
        let work = try WorkDirectory()
        try Self.prepare(work)
        for (fleet, host) in Self.spellings(in: work) {
            let commands = [
                ["run", "--to", "1.0", "--lock-timeout", "60s"], ["status", "--to", "1.0"], ["plan", "--to", "1.0"],
                ["resolve", "1.0/a", "--done", "--lock-timeout", "60s"],
            ]
            for command in commands {
                let start = ContinuousClock.now
                let refused = try work.milepost.run(command + ["--store", fleet, "--host-store", host])
                #expect(refused.status == 64, "\(command) \(fleet) \(host): \(refused.stderr)")
                #expect(refused.stderr.contains("is the fleet store"), "\(refused.stderr)")
                #expect(ContinuousClock.now - start < .seconds(30), "it waited for its own lock")
            }
        }
        #expect(!work.exists("ran.txt"))
    }

    @Test func aCopyOntoItsOwnSourceSpelledOtherwiseIsRefusedAtOnce() throws {
        let work = try WorkDirectory()
        try Self.prepare(work)
        for (source, target) in Self.spellings(in: work) {
            #expect(try work.milepost.run("run", "--to", "1.0", "--store", source, "--host-store", "host-" + source.filter(\.isLetter)).status == 0)
            let stored = work.path + (source.hasPrefix("sqlite:") ? "/app.db" : "/.milepost/state.json")
            let state = try Data(contentsOf: URL(fileURLWithPath: stored))
            let start = ContinuousClock.now
            let refused = try work.milepost.run("store", "copy", "--from", source, "--to", target, "--force", "--lock-timeout", "60s")
            #expect(refused.status == 64, "\(source) \(target): \(refused.stderr)")
            #expect(refused.stderr.contains("the source and the target are the same store"), "\(refused.stderr)")
            #expect(ContinuousClock.now - start < .seconds(30), "it waited for its own lock")
            #expect(try Data(contentsOf: URL(fileURLWithPath: stored)) == state)
        }
    }
}
