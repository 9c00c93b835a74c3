import Foundation
import Testing

/// `milepost versions`, run as the built binary.
@Suite struct VersionsCommandTests {
    @Test func listsTheVersionsReachedThenCurrentPreviousAndFirstInstalled() throws {
        let work = try WorkDirectory()
        try work.write(GoldenTests.demo, to: "milepost.yaml")
        #expect(try work.milepost.run("versions").stdout == "no version reached\n")
        #expect(try work.milepost.run("run", "--to", "2.1").status == 0)
        #expect(try work.milepost.run("run", "--to", "2.7").status == 0)

        let text = try work.milepost.run("versions")
        #expect(text.status == 0)
        let lines = text.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first?.hasPrefix("TIME") == true)
        #expect(lines[1].split(separator: " ").dropFirst().first == "2.1")
        #expect(lines[2].split(separator: " ").dropFirst().first == "2.7")
        #expect(Array(lines.suffix(4)) == ["current: 2.7", "previous: 2.1", "first installed: 2.1", ""])

        let json = try work.milepost.run("versions", "--format", "json")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(document["current"] as? String == "2.7")
        #expect(document["previous"] as? String == "2.1")
        #expect(document["first_installed"] as? String == "2.1")
        let reached = try #require(document["reached"] as? [[String: Any]])
        #expect(reached.map { $0["version"] as? String } == ["2.1", "2.7"])
        #expect(reached.map { $0["source"] as? String } == ["run", "run"])
    }
}
