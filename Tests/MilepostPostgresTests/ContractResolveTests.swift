import Foundation
import Testing

/// A contract step finished by hand (`resolve ID --done`, as `status` advises after it failed)
/// leaves the store as its successful run would have: the compatibility floor at its threshold,
/// so the release it made incompatible no longer starts. On every store.
@Suite struct ContractResolveTests {
    /// Release 1.0: one pre-start step.
    static let v1 = """
        migrations:
          "1.0":
            - {name: exec, id: create, with: {command: ['true']}}
        """

    /// Release 2.0: an expansion, and a contract step (dropping what 1.0 reads) that fails.
    static let v2 = """
        migrations:
          "1.0":
            - {name: exec, id: create, with: {command: ['true']}}
          "2.0":
            - {name: exec, id: expand, with: {command: ['true']}}
            - {name: exec, id: drop-old-column, phase: contract, with: {command: [sh, -c, 'echo "the column is in use" >&2; exit 3']}}
        """

    @Test(arguments: StoreKind.available)
    func resolvingAFailedContractStepDoneRaisesTheFloorAsItsRunWould(kind: StoreKind) async throws {
        let directory = try TestDirectory()
        try directory.write(Self.v1, to: "v1.yaml")
        try directory.write(Self.v2, to: "v2.yaml")
        let store = kind.freshSpec(in: directory.path)
        func milepost(_ arguments: String...) async throws -> (status: Int32, stdout: String, stderr: String) {
            try await MilepostProcess.outcome(arguments + ["--store", store], in: directory.path)
        }
        #expect(try await milepost("run", "--manifest", "v1.yaml", "--to", "1.0").status == 0)
        #expect(try await milepost("run", "--manifest", "v2.yaml", "--to", "2.0").status == 0)
        // The rollout of 2.0 is under way: 1.0 still starts.
        #expect(try await milepost("run", "--manifest", "v1.yaml", "--to", "1.0").status == 0)
        let contract = try await milepost("run", "--manifest", "v2.yaml", "--to", "2.0", "--phase", "contract")
        #expect(contract.status == 1, "\(contract.stderr)")
        let status = try await milepost("status", "--manifest", "v2.yaml", "--to", "2.0")
        #expect(status.stdout.contains("milepost resolve 2.0/drop-old-column --done"), "\(status.stdout)")

        // The operator drops the column by hand and records it.
        let resolved = try await milepost("resolve", "2.0/drop-old-column", "--done")
        #expect(resolved.status == 0, "\(resolved.stderr)")
        let json = try await milepost("status", "--manifest", "v2.yaml", "--to", "2.0", "--format", "json")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let floor = try #require(document["floor"] as? [String: Any], "\(document)")
        #expect(floor["version"] as? String == "2.0")
        #expect(floor["step"] as? String == "2.0/drop-old-column")
        #expect(document["verdict"] as? String == "ok", "\(document)")
        let old = try await milepost("run", "--manifest", "v1.yaml", "--to", "1.0")
        #expect(old.status == 3, "1.0 started against the dropped column: \(old.stderr)")
        #expect(old.stderr.contains("the contract step 2.0/drop-old-column made older releases incompatible"), "\(old.stderr)")
    }
}
