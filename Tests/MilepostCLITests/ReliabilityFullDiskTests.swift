import Foundation
import Testing

/// A store on a full disk: the run stops with exit 74 and the errno, nothing recorded is lost, and
/// a step that completed but could not be recorded is named with the `resolve` that records it.
///
/// The disk is a real 256 KiB tmpfs, mounted in a private mount namespace (`unshare` with a user
/// namespace, so no privilege is needed) that lives as long as one shell script: every command of
/// the scenario runs inside it.
@Suite struct ReliabilityFullDiskTests {
    static let manifest = """
        migrations:
          1.0:
            - name: exec
              id: fill
              with: {command: [sh, -c, 'dd if=/dev/zero of=disk/filler bs=4k 2>/dev/null; echo fill >> ran.txt']}
          1.1:
            - {name: exec, id: second, with: {command: [sh, -c, 'echo second >> ran.txt']}}

        """

    /// `$1` is milepost; each command's exit status is printed as `NAME=STATUS` on stdout.
    static let scenario = #"""
        set -u
        m=$1
        mkdir disk && mount -t tmpfs -o size=256k tmpfs disk || exit 90
        "$m" run --store disk/s --to 1.1; echo "full=$?"
        ls -a disk/s > listing.txt
        cp disk/s/state.json state-on-full-disk.json
        rm disk/filler
        "$m" run --store disk/s --to 1.1; echo "blocked=$?"
        "$m" resolve 1.0/fill --done --store disk/s; echo "resolve=$?"
        "$m" run --store disk/s --to 1.1; echo "rest=$?"
        """#

    @Test func aStepThatCompletedOnAFullDiskIsNamedWithItsResolve() throws {
        let work = try WorkDirectory()
        try work.write(Self.manifest, to: "milepost.yaml")
        let milepost = work.milepost.inMountNamespace(Self.scenario)
        let result = try milepost.run([])
        let statuses = result.stdout.split(separator: "\n").reduce(into: [String: String]()) { all, line in
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { all[String(parts[0])] = String(parts[1]) }
        }
        #expect(result.status == 0, "\(result.stderr)")
        #expect(statuses == ["full": "74", "blocked": "2", "resolve": "0", "rest": "0"], "\(result.stdout)\n\(result.stderr)")
        #expect(result.stderr.contains("1.0/fill succeeded, but the store could not record it"), "\(result.stderr)")
        #expect(result.stderr.contains("No space left on device"), "\(result.stderr)")
        #expect(result.stderr.contains("`milepost resolve 1.0/fill --done --store disk/s` records it as done"), "\(result.stderr)")
        // The failed write left no temp file behind, and the state it kept is the last good one.
        #expect(try work.read("listing.txt").split(separator: "\n").sorted() == [".", "..", "journal.jsonl", "lock", "state.json"])
        let state = try ReliabilityFixture.object(try work.read("state-on-full-disk.json"))
        #expect((state["in_progress"] as? [String: Any])?["id"] as? String == "1.0/fill")
        #expect((state["completed"] as? [Any])?.isEmpty == true)
        // Each step ran exactly once: the resolved one was not run again.
        #expect(try work.read("ran.txt") == "fill\nsecond\n")
    }
}
