import Milepost
import MilepostTestSupport
import Synchronization
import Testing

/// Typed `with:` parameters: decoded from the YAML nodes, errors located and naming the expected type.
@Suite struct RegistryParameterTests {
    struct Archive: Decodable, Sendable, Equatable {
        var table: String
        var batch: Int
        var olderThan: Duration
        var since: Version
        var dryRun: Bool?
    }

    static let seen = Mutex<[Archive]>([])

    static let registry: StepRegistry = {
        var registry = StepRegistry()
        registry.register("archive", parameters: Archive.self) { context in
            seen.withLock { $0.append(context.parameters) }
        }
        return registry
    }()

    private func parse(_ yaml: String) throws -> Manifest {
        try Manifest.parse(ManifestSource(path: "m.yaml", bytes: Array(yaml.utf8)), registry: Self.registry)
    }

    /// `with:` texts, the text the error must point at, and the message.
    @Test(arguments: [
        ("table: t, batch: lots, olderThan: 1s, since: 1", "lots", "'batch': expected an integer, found the string \"lots\""),
        ("table: t, batch: \"5\", olderThan: 1s, since: 1", "\"5\"", "'batch': expected an integer, found the quoted string \"5\""),
        ("table: t, batch: 1.5, olderThan: 1s, since: 1", "1.5", "'batch': expected an integer, found the number 1.5"),
        ("table: [t], batch: 1, olderThan: 1s, since: 1", "[t]", "'table': expected a string, found a sequence"),
        ("table: t, batch: 1, olderThan: 1s, since: 1, dryRun: maybe", "maybe", "'dryRun': expected a boolean, found the string \"maybe\""),
        ("table: t, batch: 1, olderThan: soon, since: 1", "soon", "'olderThan': expected a duration (250ms, 30s, 1h30m, 1.5h), found the string \"soon\""),
        ("table: t, batch: 1, olderThan: 1s, since: 2.x", "2.x", "'since': invalid version '2.x': expected dot-separated numbers such as 2.10.1"),
        ("table: t, batch: 1, olderThan: 1s", "{", "missing key 'since', expected a value of type Version"),
        ("tabel: t, table: t, batch: 1, olderThan: 1s, since: 1", "tabel", "unknown parameter 'tabel' [did you mean 'table'?]"),
    ])
    func errorsNameTheLineColumnAndExpectedType(with: String, at marker: String, message: String) throws {
        let line = "      with: {\(with)}"
        let column = try #require(line.range(of: marker)).lowerBound.utf16Offset(in: line) + 1
        do {
            _ = try parse("migrations:\n  2.7:\n    - name: archive\n\(line)\n")
            Issue.record("no error for \(with)")
        } catch ManifestError.invalid(let diagnostics, _) {
            let found = diagnostics.map { diagnostic in
                "\(diagnostic.location?.description ?? "-"): \(diagnostic.message)" + diagnostic.notes.map { " [\($0.message)]" }.joined()
            }
            #expect(found == ["4:\(column): step 'archive': \(message)"])
        }
    }

    @Test func everyStepsParameterErrorIsReportedAtOnce() {
        let yaml = """
            migrations:
              2.1:
                - name: archive
                  with: {table: a, batch: x, olderThan: 1s, since: 1}
              2.7:
                - name: archive
                  with: {table: b, batch: 1, olderThan: 1 week, since: 1}
            """
        #expect {
            _ = try parse(yaml)
        } throws: { error in
            guard case ManifestError.invalid(let diagnostics, _) = error else { return false }
            return diagnostics.compactMap(\.location?.line) == [4, 7]
        }
    }

    @Test func durationsAndVersionsDecodeNativelyAndReachTheStep() async throws {
        let fixture = try RunnerFixture()
        let manifest = try fixture.manifest("""
            migrations:
              "1":
                - name: archive
                  with: {table: t, batch: 500, olderThan: 5m, since: 2.10}
                - name: archive
                  id: again
                  with: {table: u, batch: 2, olderThan: 250ms, since: v1.2.3-rc.1, dryRun: true}
            """, registry: Self.registry)
        Self.seen.withLock { $0.removeAll() }
        _ = try await fixture.runner().run(to: Version("1")) { manifest }
        let seen = Self.seen.withLock { $0 }
        #expect(seen == [
            Archive(table: "t", batch: 500, olderThan: .seconds(300), since: Version("2.10")),
            Archive(table: "u", batch: 2, olderThan: .milliseconds(250), since: Version("v1.2.3-rc.1"), dryRun: true),
        ])
        // Read from its text, never as the float 2.1.
        #expect(seen.first?.since.text == "2.10")
    }
}
