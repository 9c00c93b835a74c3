import Foundation
import Testing

/// Two applications on one store: the second is refused (exit 64) wherever its manifest meets the
/// first one's state, instead of reading the first one's version as its own.
@Suite struct ReliabilityAppTests {
    static func manifest(app: String, thresholds: [String]) -> String {
        "app: \(app)\nmigrations:\n" + thresholds.map {
            "  \($0): [{name: exec, id: s, with: {command: [sh, -c, 'echo \(app)-\($0) >> ran.txt']}}]\n"
        }.joined()
    }

    @Test func aSecondApplicationOnTheStoreIsRefused() throws {
        let work = try WorkDirectory()
        try work.write(Self.manifest(app: "billing", thresholds: ["1", "2"]), to: "milepost.yaml")
        #expect(try work.milepost.run("run", "--to", "2").status == 0)
        try work.write(Self.manifest(app: "search", thresholds: ["1", "3"]), to: "search.yaml")
        let state = try work.read(".milepost/state.json")

        // `run --to 2` is at the stored version: the pre-start fast path sees another manifest (its digest).
        for command in [["run", "--to", "3"], ["run", "--to", "2"], ["run", "--to", "3", "--dry-run"], ["plan", "--to", "3"], ["status"], ["status", "--check", "--to", "3"]] {
            let result = try work.milepost.run(command + ["--manifest", "search.yaml"])
            #expect(result.status == 64, "\(command): \(result.stderr)")
            #expect(result.stderr.contains("the store .milepost holds the state of app 'billing', and this manifest is app 'search'"),
                    "\(command): \(result.stderr)")
        }
        #expect(try work.read("ran.txt") == "billing-1\nbilling-2\n")
        #expect(try work.read(".milepost/state.json") == state)
    }
}
