import Foundation
import Testing

/// A state that cannot be read is an I/O error (exit 74) whose message says what to do, and
/// the file is never touched: not rewritten, not replaced, not renamed.
@Suite struct ReliabilityStateTests {
    static let manifest = "migrations:\n  1: [{name: exec, with: {command: [touch, ran]}}]\n"

    static let unreadable: [(name: String, bytes: [UInt8])] = [
        ("empty", []),
        ("not JSON", Array("{not json".utf8)),
        ("torn JSON", Array(#"{"format": 1, "version": "1.0", "comple"#.utf8)),
        ("unknown format", Array(#"{"completed": [], "format": 99, "updated_at": "2026-01-01T00:00:00.000Z", "version": "1"}"#.utf8)),
        ("invalid stored version", Array(#"{"completed": [], "format": 1, "updated_at": "2026-01-01T00:00:00.000Z", "version": "one"}"#.utf8)),
        ("binary", [0x7F, 0x45, 0x4C, 0x46, 0x00, 0xFF, 0xC3]),
    ]

    @Test(arguments: unreadable.map(\.name))
    func exitsSeventyFourAndLeavesTheFileAlone(name: String) throws {
        let bytes = try #require(Self.unreadable.first { $0.name == name }).bytes
        let work = try WorkDirectory()
        try work.write(Self.manifest, to: "milepost.yaml")
        try work.write("", to: ".milepost/state.json")
        let path = work.path + "/.milepost/state.json"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let before = try FileManager.default.attributesOfItem(atPath: path)

        for command in [["run", "--to", "1"], ["status"]] {
            let result = try work.milepost.run(command)
            #expect(result.status == 74, "\(command): \(result.stderr)")
            #expect(result.stderr.contains("cannot read the state in .milepost"), "\(result.stderr)")
            #expect(result.stderr.contains(
                "restore it from a backup, or move .milepost/state.json away and run `milepost status`: if it shows no state, "
                    + "`milepost baseline VERSION` starts over"), "\(result.stderr)")
        }
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))) == bytes)
        let after = try FileManager.default.attributesOfItem(atPath: path)
        #expect(after[.systemFileNumber] as? Int == before[.systemFileNumber] as? Int)
        #expect(after[.modificationDate] as? Date == before[.modificationDate] as? Date)
        #expect(!work.exists("ran"))
        #expect(!work.exists(".milepost/journal.jsonl"))
    }

    /// Root reads through file modes, so an unreadable state is made with a directory in its place.
    @Test func aStateThatCannotBeOpenedExitsSeventyFour() throws {
        let work = try WorkDirectory()
        try work.write(Self.manifest, to: "milepost.yaml")
        try FileManager.default.createDirectory(atPath: work.path + "/.milepost/state.json", withIntermediateDirectories: true)
        let result = try work.milepost.run("run", "--to", "1")
        #expect(result.status == 74, "\(result.stderr)")
        #expect(result.stderr.contains(".milepost"), "\(result.stderr)")
        #expect(!work.exists("ran"))
    }
}
