import Foundation
import Milepost
import MilepostTestSupport
import MilepostYAML
import Testing

@Suite struct ManifestTests {
    private func load(_ yaml: String) throws -> Manifest {
        try Manifest.parse(ManifestSource(path: "m.yaml", bytes: Array(yaml.utf8)), registry: RunnerFixture.registry(recording: .init()))
    }

    /// The diagnostics of an invalid manifest as `line:col: message`.
    private func errors(_ yaml: String) -> [String] {
        do {
            _ = try load(yaml)
            return []
        } catch ManifestError.invalid(let diagnostics, _) {
            return diagnostics.filter { $0.severity == .error }.map(describe)
        } catch {
            return ["unexpected: \(error)"]
        }
    }

    private func describe(_ diagnostic: Diagnostic) -> String {
        let place = diagnostic.location.map { "\($0.line):\($0.column)" } ?? "-"
        let notes = diagnostic.notes.map { " [\($0.message)]" }.joined()
        return "\(place): \(diagnostic.message)\(notes)"
    }

    /// A quoted line is the line a diagnostic's line number names: CR, CRLF, NEL, LS and PS end lines
    /// for both.
    @Test func sourceLinesEndWhereDiagnosticLinesDo() {
        let source = ManifestSource(path: "m.yaml", bytes: Array("a\rb\r\nc\u{85}d\u{2028}e\u{2029}f\n\ng".utf8))
        #expect((1...8).map { source.line($0) } == ["a", "b", "c", "d", "e", "f", "", "g"])
        #expect(source.line(9) == nil)
    }

    @Test func readsVersionKeysFromTheirText() throws {
        let manifest = try load("""
            app: titi
            baseline: "2.0"
            migrations:
              2.10:
                - note
              2.9:
                - name: note
                  id: nine
              2.1:
                - note
            """)
        #expect(manifest.app == "titi")
        #expect(manifest.baseline == Version("2.0"))
        #expect(manifest.steps.map(\.id) == ["2.1/note", "2.9/nine", "2.10/note"])
        #expect(manifest.steps.map(\.threshold.text) == ["2.1", "2.9", "2.10"])
        #expect(manifest.warnings.map(\.message) == [
            "threshold '2.9' is written after a higher one; steps run in version order regardless",
            "threshold '2.1' is written after a higher one; steps run in version order regardless",
            "thresholds '2.10' and '2.1' are the same number to other YAML tools, which read them as one duplicate key: "
                + "quote both (\"2.10\": and \"2.1\":)",
        ])
    }

    @Test func readsEveryStepField() throws {
        let manifest = try load("""
            migrations:
              1:
                - name: flaky
                  id: try-hard
                  with: {failures: 1}
                  timeout: 250ms
                  retries: 3
                  idempotent: true
                  description: Try hard
                - name: sleepSafely
                  with: {duration: 5m}
            """)
        let step = manifest.steps[0]
        #expect(step.id == "1/try-hard")
        #expect(step.name == "flaky")
        #expect(step.timeout == .milliseconds(250))
        #expect(step.retries == 3)
        #expect(step.idempotent)
        #expect(step.description == "Try hard")
        #expect(step.location == SourceLocation(line: 3, column: 13))
        #expect(manifest.steps[1].idempotent, "registered as idempotent")
        #expect(manifest.steps[1].timeout == nil && manifest.steps[1].retries == 0)
    }

    @Test func fingerprintsChangeWithTheEntryOnly() throws {
        let a = try load("migrations:\n  1:\n    - name: flaky\n      with: {failures: 1}\n      description: x\n")
        let b = try load("migrations:\n  1:\n    - name: flaky\n      with: {failures: 1}\n      description: y\n")
        let c = try load("migrations:\n  1:\n    - name: flaky\n      with: {failures: 2}\n")
        #expect(a.steps[0].fingerprint == b.steps[0].fingerprint)
        #expect(a.steps[0].fingerprint != c.steps[0].fingerprint)
        #expect(a.steps[0].fingerprint.count == 16)
    }

    @Test(arguments: [
        ("- just a list", "1:1: a manifest is a mapping with a 'migrations' key"),
        ("app: x", "1:1: missing the required key 'migrations'"),
        ("migratons: {}", "1:1: unknown key 'migratons' in the manifest [did you mean 'migrations'?]"),
        ("migrations: [note]", "1:13: 'migrations' maps version thresholds to lists of steps"),
        ("migrations:\n  2.x: [note]", "2:3: invalid version '2.x': expected dot-separated numbers such as 2.10.1"),
        ("baseline: two\nmigrations: {1: [note]}", "1:11: invalid version 'two': expected dot-separated numbers such as 2.10.1"),
        ("migrations:\n  2.1: [note]\n  2.1.0: [note]", "3:3: threshold '2.1.0' is the same version as '2.1' ['2.1' is defined here]"),
        ("migrations:\n  1: []", "2:6: threshold '1' has no steps"),
        ("migrations:\n  1: note", "2:6: the steps of '1' must be a list"),
        ("migrations:\n  1: [note, note]", "2:13: two steps with the id '1/note'; give one an 'id:' [the first is here]"),
        ("migrations:\n  1: [nope]", "2:7: unknown step 'nope' [did you mean 'note'?]"),
        ("migrations:\n  1: [9lives]", "2:7: invalid step name '9lives': use letters, digits, '_', '.', ':' and '-', starting with a letter or '_'"),
        ("migrations:\n  1: [{name: note, id: a/b}]", "2:24: invalid step id 'a/b': use letters, digits, '_', '.', ':' and '-', starting with a letter or '_'"),
        ("migrations:\n  1: [{id: x}]", "2:7: a step needs a 'name'"),
        ("migrations:\n  1: [[note]]", "2:7: a step is a name or a mapping with 'name:'"),
        ("migrations:\n  1: [{name: note, retry: 1}]", "2:20: unknown key 'retry' in a step [did you mean 'retries'?]"),
        ("migrations:\n  1: [{name: note, timeout: 5 min}]", "2:29: invalid timeout '5 min': expected numbers with units (ms, s, m, h, d), e.g. 30s, 1h30m or 1.5h"),
        ("migrations:\n  1: [{name: note, retries: many}]", "2:29: invalid retries 'many': expected a whole number from 0 to 100"),
        ("migrations:\n  1: [{name: note, idempotent: yes}]", "2:32: invalid idempotent 'yes': expected true or false"),
        ("migrations:\n  1: [{name: note, with: 5}]", "2:26: 'with' must be a mapping of parameters"),
        ("migrations:\n  1: [{name: note, with: {x: 1}}]", "2:27: step 'note': unknown parameter 'x'"),
        ("migrations:\n  1: [{name: flaky, with: {failures: \"2\"}}]", "2:38: step 'flaky': 'failures': expected an integer, found the quoted string \"2\""),
        ("migrations:\n  1: [{name: flaky, with: {}}]", "2:27: step 'flaky': missing key 'failures', expected an integer"),
        ("migrations:\n  1: [{name: exec, with: {command: ls}}]", "2:36: step 'exec': 'command': expected a sequence, found the string \"ls\""),
        ("migrations:\n  1: [{name: exec, with: {command: []}}]", "2:26: step 'exec': 'command' needs at least the program to run"),
        ("migrations:\n  1: [note]\n  1: [note]", "3:3: duplicate key '1' [first defined here]"),
        ("migrations:\n\t1: [note]", "2:1: a tab character cannot be used for indentation or separation here; use spaces"),
    ])
    func reportsEachErrorWithItsPosition(yaml: String, expected: String) {
        let found = errors(yaml)
        #expect(found.first == expected, "all: \(found)")
    }

    @Test func reportsEveryErrorAtOnce() {
        let found = errors("""
            migrations:
              1: [nope]
              2: [{name: note, retries: x}]
              3: []
            """)
        #expect(found.count == 3, "\(found)")
    }

    @Test func bundledManifestsAreValid() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        for name in ["example.yaml", "reference.yaml"] {
            let manifest = try Manifest.load(path: root.appendingPathComponent("manifests/\(name)").path, registry: .standard)
            #expect(!manifest.steps.isEmpty)
            #expect(manifest.warnings.isEmpty)
        }
    }

    @Test func missingAndRefusedFilesAreDistinguished() {
        #expect {
            _ = try Manifest.load(path: "/nonexistent/m.yaml", registry: .standard)
        } throws: { error in
            if case ManifestError.unreadable(let path, _) = error { return path == "/nonexistent/m.yaml" }
            return false
        }
        #expect {
            _ = try Manifest.load(path: "/dev/zero", registry: .standard)
        } throws: { error in
            if case ManifestError.invalid(let diagnostics, _) = error { return diagnostics.count == 1 }
            return false
        }
    }
}
