import Foundation
import Testing

/// Paths are bytes on Linux: a manifest or a store directory whose name is not UTF-8 is used as it
/// is (never "not found", never merged with another name), and messages show each such byte as `\xFF`.
@Suite struct ReliabilityPathBytesTests {
    /// `milepost ARGUMENTS… EXTRA` through `sh`, which passes `extra`'s bytes (printf octal escapes) untouched.
    static func milepost(in work: WorkDirectory, appending extra: String, environment: String = "") -> MilepostBinary {
        var binary = work.milepost
        binary.launcher = ["/bin/sh", "-c", #"\#(environment) exec "$0" "$@" \#(extra)"#]
        return binary
    }

    /// Whether `bytes` (a path relative to `work`) exists, asked with those exact bytes.
    static func exists(_ bytes: [UInt8], in work: WorkDirectory) -> Bool {
        let path = (Array(work.path.utf8) + [UInt8(ascii: "/")] + bytes).map { CChar(bitPattern: $0) } + [0]
        var status = stat()
        return stat(path, &status) == 0
    }

    /// Creates the file `bytes` in `work` holding `text`.
    static func create(_ bytes: [UInt8], _ text: String, in work: WorkDirectory) throws {
        let path = (Array(work.path.utf8) + [UInt8(ascii: "/")] + bytes).map { CChar(bitPattern: $0) } + [0]
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        let data = Array(text.utf8)
        #expect(write(descriptor, data, data.count) == data.count)
    }

    /// Removes what FileManager could not name.
    static func clean(_ work: WorkDirectory) {
        let rm = Process()
        rm.executableURL = URL(fileURLWithPath: "/bin/rm")
        rm.arguments = ["-rf", work.path]
        try? rm.run()
        rm.waitUntilExit()
    }

    /// A variable whose value is not UTF-8 reaches an `exec` step as the same bytes, in the step's
    /// environment and substituted into its arguments (`ProcessInfo` made such a byte U+FFFD).
    @Test func aVariableWithBytesThatAreNotUTF8ReachesAnExecStepExactly() throws {
        let work = try WorkDirectory()
        try work.write("""
            variables: [BYTES]
            migrations:
              1.0:
                - {name: exec, with: {command: [sh, -c, 'printf %s "$BYTES" > env.bin; printf %s "$0" > arg.bin', '${BYTES}']}}
            """, to: "milepost.yaml")
        let run = try Self.milepost(in: work, appending: "", environment: #"BYTES="$(printf 'a\377b')""#).run("run", "--to", "1.0")
        #expect(run.status == 0, "\(run.stderr)")
        let expected: [UInt8] = [UInt8(ascii: "a"), 0xFF, UInt8(ascii: "b")]
        for name in ["env.bin", "arg.bin"] {
            #expect(Array(try Data(contentsOf: URL(fileURLWithPath: work.path + "/" + name))) == expected, "\(name)")
        }
    }

    @Test func aManifestAndAStoreNamedWithBytesThatAreNotUTF8RunAndAreShownEscaped() throws {
        let work = try WorkDirectory()
        defer { Self.clean(work) }
        try Self.create(Array("m".utf8) + [0xFF] + Array(".yaml".utf8), ReliabilityFixture.recordingManifest(["1.0/a"]), in: work)
        let store = #"--manifest "$(printf 'm\377.yaml')" --store "$(printf 's\377')""#

        let run = try Self.milepost(in: work, appending: store).run("run", "--to", "1.0")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try work.read("ran.txt") == "1.0/a\n")
        // The store is the directory with that very byte, not one named with U+FFFD.
        #expect(Self.exists([UInt8(ascii: "s"), 0xFF] + Array("/state.json".utf8), in: work))
        #expect(!Self.exists(Array("s\u{FFFD}".utf8), in: work))

        let again = try Self.milepost(in: work, appending: store).run("run", "--to", "1.0")
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stderr.contains("up to date"), "\(again.stderr)")
        #expect(try work.read("ran.txt") == "1.0/a\n")

        let status = try Self.milepost(in: work, appending: store).run("status")
        #expect(status.status == 0, "\(status.stderr)")
        #expect(status.stdout.contains(#"s\xFF"#), "\(status.stdout)")
        #expect(status.stdout.contains("1.0"), "\(status.stdout)")

        // The same bytes through MILEPOST_STORE and MILEPOST_MANIFEST name the same store.
        let fromEnvironment = try Self.milepost(
            in: work, appending: "",
            environment: #"MILEPOST_STORE="$(printf 's\377')" MILEPOST_MANIFEST="$(printf 'm\377.yaml')""#
        ).run("run", "--to", "1.0")
        #expect(fromEnvironment.status == 0, "\(fromEnvironment.stderr)")
        #expect(fromEnvironment.stderr.contains("up to date"), "\(fromEnvironment.stderr)")
    }

    @Test func twoStoresWhoseNamesDifferOnlyInABadByteStayTwo() throws {
        let work = try WorkDirectory()
        defer { Self.clean(work) }
        try work.write(ReliabilityFixture.recordingManifest(["1.0/a"]), to: "milepost.yaml")
        #expect(try Self.milepost(in: work, appending: #"--store "$(printf 's\377')""#).run("run", "--to", "1.0").status == 0)
        let other = try Self.milepost(in: work, appending: #"--store "$(printf 's\376')""#).run("run", "--to", "1.0")
        #expect(other.status == 0, "\(other.stderr)")
        #expect(try work.read("ran.txt") == "1.0/a\n1.0/a\n", "the second store is a store of its own")
        #expect(Self.exists([UInt8(ascii: "s"), 0xFE] + Array("/state.json".utf8), in: work))
    }

    @Test func aMissingManifestIsNamedWithItsBadByteEscaped() throws {
        let work = try WorkDirectory()
        defer { Self.clean(work) }
        let result = try Self.milepost(in: work, appending: #"--manifest "$(printf 'nope\377.yaml')""#).run("validate")
        #expect(result.status == 66, "\(result.stderr)")
        #expect(result.stderr.contains(#"nope\xFF.yaml"#), "\(result.stderr)")
        #expect(!result.stderr.contains("\u{FFFD}"), "\(result.stderr)")
    }
}
