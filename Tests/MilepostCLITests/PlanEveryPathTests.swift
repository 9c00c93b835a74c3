import Foundation
import Testing

/// `milepost plan --from A --from B --to V`: every upgrade path a release supports, planned in one
/// call, as the built binary prints it.
@Suite struct PlanEveryPathTests {
    /// 1.0 is the baseline; 2.0 a required stop, so 1.0 → 3.0 is refused and 2.0 → 3.0 is not.
    static let manifest = """
        app: demo
        baseline: "1.0"
        stops: ["2.0"]
        migrations:
          "2.0": [{name: exec, id: a, with: {command: ['true']}}]
          "2.1": [{name: exec, id: b, with: {command: ['true']}}]
          "3.0": [{name: exec, id: c, with: {command: ['true']}}]
        """

    @Test func eachPathIsPlannedUnderAHeadingNamingIt() throws {
        let work = try WorkDirectory()
        try work.write(Self.manifest, to: "milepost.yaml")
        let result = try work.milepost.run("plan", "--from", "1.0", "--from", "2.0", "--to", "3.0")
        #expect(result.status == 0, "\(result.stderr)")
        let sections = result.stdout.components(separatedBy: "\n\n")
        #expect(sections.count == 2)
        let first = sections[0].split(separator: "\n").map(String.init)
        let second = sections[1].split(separator: "\n").map(String.init)
        #expect(first.first == "=== upgrade path 1.0 → 3.0 ===")
        #expect(first.dropFirst().first == "demo: 1.0 (--from) → 3.0: 3 steps to run")
        #expect(first.contains { $0.hasPrefix("refused: a run stops here") && $0.contains("2.0") })
        #expect(first.last?.hasPrefix("note: a store at 1.0 makes this an upgrade") == true)
        #expect(second.first == "=== upgrade path 2.0 → 3.0 ===")
        #expect(second.dropFirst().first == "demo: 2.0 (--from) → 3.0: 2 steps to run")
        #expect(!second.contains { $0.hasPrefix("refused:") })
        #expect(second.last?.hasPrefix("note: a store at 2.0 makes this an upgrade") == true)

        // One --from prints its plan as before: no heading.
        let single = try work.milepost.run("plan", "--from", "2.0", "--to", "3.0")
        #expect(single.stdout == sections[1].split(separator: "\n", omittingEmptySubsequences: false).dropFirst()
            .joined(separator: "\n") + (sections[1].hasSuffix("\n") ? "" : "\n"))
    }

    @Test func jsonIsAListOfPlansInTheOrderGivenAndOneFromStaysAnObject() throws {
        let work = try WorkDirectory()
        try work.write(Self.manifest, to: "milepost.yaml")
        let result = try work.milepost.run("plan", "--from", "2.0", "--from", "1.0", "--to", "3.0", "--format", "json")
        #expect(result.status == 0, "\(result.stderr)")
        let plans = try #require(try JSONValue(parsing: result.stdout).array)
        #expect(plans.map { $0["from"]?.string } == ["2.0", "1.0"])
        #expect(plans.map { $0["command"]?.string } == ["plan", "plan"])
        #expect(plans.map { $0["pending"]?.array?.compactMap(\.string) } == [["2.1/b", "3.0/c"], ["2.0/a", "2.1/b", "3.0/c"]])
        #expect(plans.map { $0["required_stop"]?["version"]?.string } == [nil, "2.0"])
        #expect(try JSONSchema().problems(ofDocument: result.stdout, command: "plans") == [])

        let single = try JSONValue(parsing: try work.milepost.run("plan", "--from", "2.0", "--to", "3.0", "--format", "json").stdout)
        #expect(single == plans[0])
    }

    @Test func aPathGivenTwiceOrAStoreBesideFromIsAUsageError() throws {
        let work = try WorkDirectory()
        try work.write(Self.manifest, to: "milepost.yaml")
        let twice = try work.milepost.run("plan", "--from", "2.0", "--from", "2.0.0", "--to", "3.0")
        #expect(twice.status == 64)
        #expect(twice.stderr.contains("--from 2.0.0 is given twice"))
        let withStore = try work.milepost.run("plan", "--from", "1.0", "--from", "2.0", "--store", "s", "--to", "3.0")
        #expect(withStore.status == 64)
        #expect(withStore.stderr.contains("give either --store or --from, not both"))
    }
}
