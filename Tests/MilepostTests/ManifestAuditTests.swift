import Milepost
import Testing

/// `Manifest.unusedSteps` (what `validate --strict` adds) lists the application's registered steps a
/// manifest never uses.
@Suite struct ManifestAuditTests {
    @Test func listsOnlyTheApplicationsUnusedSteps() throws {
        var registry = StepRegistry.standard
        registry.register("removeEmptyDailys") { _ in }
        registry.register("reindex") { _ in }
        let yaml = "migrations:\n  1: [reindex, {name: exec, with: {command: [\"true\"]}}]\n"
        let manifest = try Manifest.parse(ManifestSource(path: "m.yaml", bytes: Array(yaml.utf8)), registry: registry)
        let warnings = manifest.unusedSteps(in: registry)
        #expect(warnings.map(\.message) == ["the registered step 'removeEmptyDailys' is not used by this manifest"])
        #expect(warnings.allSatisfy { $0.severity == .warning && $0.file == "m.yaml" })
    }
}
