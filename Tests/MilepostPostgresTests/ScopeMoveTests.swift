import Foundation
import Testing

/// A completed step whose `scope:` is edited afterwards: the lock file and drift see the change,
/// `validate --store` and every run refuse it (exit 65), and the step never runs again in the
/// other store. Both ways, on every fleet store.
@Suite struct ScopeMoveTests {
    static func manifest(scope: String) -> String {
        """
        migrations:
          "1.0":
            - {name: exec, id: cache, scope: \(scope), with: {command: [sh, -c, 'echo "$MILEPOST_STEP" >> ran.txt']}}
        """
    }

    @Test(arguments: StoreKind.available, [(from: "fleet", to: "host"), (from: "host", to: "fleet")])
    func aCompletedStepMovedBetweenStoresIsRefusedNotRunAgain(kind: StoreKind, move: (from: String, to: String)) async throws {
        let directory = try TestDirectory()
        let store = kind.freshSpec(in: directory.path)
        let stores = ["--store", store, "--host-store", "host"]
        func milepost(_ arguments: [String]) async throws -> (status: Int32, stdout: String, stderr: String) {
            try await MilepostProcess.outcome(arguments, in: directory.path)
        }
        try directory.write(Self.manifest(scope: move.from), to: "milepost.yaml")
        #expect(try await milepost(["run", "--to", "1.0"] + stores).status == 0)
        #expect(try await milepost(["lock"]).status == 0)
        #expect(try await milepost(["validate", "--locked"]).status == 0)

        try directory.write(Self.manifest(scope: move.to), to: "milepost.yaml")
        let locked = try await milepost(["validate", "--locked"])
        #expect(locked.status == 65, "\(locked.stdout)\(locked.stderr)")
        #expect((locked.stdout + locked.stderr).contains("1.0/cache changed since milepost.lock was written"), "\(locked.stdout)\(locked.stderr)")
        let run = try await milepost(["run", "--to", "1.0"] + stores)
        #expect(run.status == 65, "\(run.stderr)")
        #expect(run.stderr.contains("step 1.0/cache is scope: \(move.to), but it ran as a \(move.from) step"), "\(run.stderr)")
        #expect(try await milepost(["run", "--to", "1.0", "--dry-run"] + stores).status == 65)
        let status = try await milepost(["status", "--to", "1.0"] + stores)
        #expect(status.stdout.contains("completed steps whose scope changed stop every run"), "\(status.stdout)")
        if move.from == "fleet" {
            // The fleet store records it: drift, and `validate --store` (which reads the fleet store only) refuses.
            let json = try await milepost(["status", "--to", "1.0", "--format", "json"] + stores)
            let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
            #expect((document["drift"] as? [[String: Any]])?.map { $0["id"] as? String } == ["1.0/cache"], "\(document)")
            let validate = try await milepost(["validate", "--store", store])
            #expect(validate.status == 65, "\(validate.stdout)\(validate.stderr)")
            #expect((validate.stdout + validate.stderr).contains("step 1.0/cache is scope: host, but it ran as a fleet step"))
        }
        #expect(directory.read("ran.txt") == "1.0/cache\n", "the completed step ran again")
    }
}
