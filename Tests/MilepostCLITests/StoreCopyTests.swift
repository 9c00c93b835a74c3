import Foundation
import Testing

/// `milepost store copy`: a store's history moved into another store, the source only read.
@Suite struct StoreCopyTests {
    /// A store in `work/.milepost` at 1.1, a step of 1.2 interrupted at its cursor 7 (resumable).
    static func sourceStore(_ work: WorkDirectory) throws {
        try work.write("""
            migrations:
              "1.0": [{name: exec, id: a, with: {command: [sh, -c, 'echo "$MILEPOST_STEP" >> ran.txt']}}]
              "1.1": [{name: exec, id: b, with: {command: [sh, -c, 'echo "$MILEPOST_STEP" >> ran.txt']}}]
              "1.2":
                - name: exec
                  id: items
                  resumable: true
                  with: {command: [sh, -c, 'echo "cursor 7" >&$MILEPOST_CONTROL_FD; [ -e go ] || exit 1; echo "$MILEPOST_STEP ${MILEPOST_RESUME_CURSOR:-}" >> ran.txt']}
            """, to: "milepost.yaml")
        #expect(try work.milepost.run("run", "--to", "1.1").status == 0)
        #expect(try work.milepost.run("run", "--to", "1.2").status == 1)
    }

    @Test func aCopyCarriesTheStateTheCursorAndTheJournalAndLeavesTheSourceAsItWas() throws {
        let work = try WorkDirectory()
        try Self.sourceStore(work)
        let (state, journal) = (try work.read(".milepost/state.json"), try work.read(".milepost/journal.jsonl"))
        let copy = try work.milepost.run("store", "copy", "--from", ".milepost", "--to", "moved")
        #expect(copy.status == 0, "\(copy.stderr)")
        let records = journal.split(separator: "\n").count
        #expect(copy.stdout == ".milepost → moved: version 1.1, 2 completed steps, \(records) journal records copied\n")
        #expect(try work.read(".milepost/state.json") == state)
        #expect(try work.read(".milepost/journal.jsonl") == journal)
        #expect(try work.read("moved/state.json") == state)
        #expect(try work.read("moved/journal.jsonl") == journal)

        // Runners moved to the target go on where the source stopped: at the failed step's cursor.
        try work.write("", to: "go")
        let next = try work.milepost.run("run", "--to", "1.2", "--store", "moved")
        #expect(next.status == 0, "\(next.stderr)")
        #expect(try work.read("ran.txt") == "1.0/a\n1.1/b\n1.2/items 7\n")
    }

    @Test func aTargetWithAStateIsRefusedUnlessForced() throws {
        let work = try WorkDirectory()
        try Self.sourceStore(work)
        try work.write("migrations:\n  \"9.0\": [{name: exec, with: {command: [true]}}]\n", to: "other/milepost.yaml")
        #expect(try work.milepost.run("run", "--manifest", "other/milepost.yaml", "--store", "target", "--to", "9.0").status == 0)
        let target = try work.read("target/state.json")
        let refused = try work.milepost.run("store", "copy", "--from", ".milepost", "--to", "target")
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("target already has a state (version 9.0); it is left as it is"), "\(refused.stderr)")
        #expect(refused.stderr.contains("pass --force to replace its state"), "\(refused.stderr)")
        #expect(try work.read("target/state.json") == target)
        let forced = try work.milepost.run("store", "copy", "--from", ".milepost", "--to", "target", "--force")
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(try work.read("target/state.json") == (try work.read(".milepost/state.json")))
    }

    @Test func anEmptySourceTheSameStoreAndAHeldLockAreRefused() throws {
        let work = try WorkDirectory()
        let empty = try work.milepost.run("store", "copy", "--from", "nothing", "--to", "target")
        #expect(empty.status == 64)
        #expect(empty.stderr.contains("nothing is stored in nothing: there is no state to copy"), "\(empty.stderr)")
        #expect(!work.exists("target"))
        let same = try work.milepost.run("store", "copy", "--from", "a", "--to", "a")
        #expect(same.status == 64)
        try ReliabilityLockTests.withHeldLock(in: work) { holder in
            let held = try work.milepost.run("store", "copy", "--from", ".milepost", "--to", "target", "--lock-timeout", "300ms")
            #expect(held.status == 75, "\(held.stderr)")
            #expect(held.stderr.contains("held by pid \(holder.processIdentifier)"), "\(held.stderr)")
        }
    }
}
