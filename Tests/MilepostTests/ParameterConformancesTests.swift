@testable import Milepost
import Testing

/// The optional parameter protocols are found once per type, and still apply to every step.
@Suite struct ParameterConformancesTests {
    struct Plain: Decodable, Sendable { var table: String }

    struct Warned: Decodable, Sendable, ParameterWarnings {
        var table: String
        var warnings: [String] { ["'\(table)' is large"] }
    }

    struct Filed: Decodable, Sendable, DefinitionFileParameters {
        var file: String
        var definitionFiles: [String] { [file] }
    }

    @Test func eachTypeIsSortedOnce() {
        for _ in 0..<2 {
            let plain = ParameterConformances.of(Plain.self), warned = ParameterConformances.of(Warned.self), filed = ParameterConformances.of(Filed.self)
            #expect(!plain.warnings && !plain.definitionFiles)
            #expect(warned.warnings && !warned.definitionFiles)
            #expect(!filed.warnings && filed.definitionFiles)
        }
    }

    @Test func everyStepStillGetsItsWarningsAndFiles() throws {
        var registry = StepRegistry()
        registry.register("plain", parameters: Plain.self) { _ in }
        registry.register("warned", parameters: Warned.self) { _ in }
        registry.register("filed", parameters: Filed.self) { _ in }
        let manifest = try Manifest.parse(ManifestSource(path: "/m/m.yaml", bytes: Array("""
            migrations:
              1.1:
                - {name: plain, id: p, with: {table: a}}
                - {name: warned, id: w1, with: {table: b}}
                - {name: warned, id: w2, with: {table: c}}
                - {name: filed, id: f1, with: {file: one.sql}}
                - {name: filed, id: f2, with: {file: two.sql}}
            """.utf8)), registry: registry)
        #expect(manifest.warnings.map(\.message) == ["step 'warned': 'b' is large", "step 'warned': 'c' is large"])
        #expect(manifest.steps.map { $0.definitionFiles.map(\.name) } == [[], [], [], ["one.sql"], ["two.sql"]])
    }

    /// Parameters registered as an `Optional`: the type adopts neither protocol, its values may,
    /// and get their warnings and files as when every value was cast.
    @Test func optionalParametersAreStillCast() throws {
        let optional = ParameterConformances.of(Warned?.self)
        #expect(optional.warnings && optional.definitionFiles)
        var registry = StepRegistry()
        registry.register("warned", parameters: Warned?.self) { _ in }
        registry.register("filed", parameters: Filed?.self) { _ in }
        let manifest = try Manifest.parse(ManifestSource(path: "/m/m.yaml", bytes: Array("""
            migrations:
              1.1:
                - {name: warned, id: w, with: {table: b}}
                - {name: filed, id: f, with: {file: one.sql}}
            """.utf8)), registry: registry)
        #expect(manifest.warnings.map(\.message) == ["step 'warned': 'b' is large"])
        #expect(manifest.steps.map { $0.definitionFiles.map(\.name) } == [[], ["one.sql"]])
    }
}
