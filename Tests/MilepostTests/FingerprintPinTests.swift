import Milepost
import Testing

/// Fingerprints are stored with every completed step and compared for drift: these pinned values
/// must never change, whatever the loader does to compute them.
@Suite struct FingerprintPinTests {
    /// Takes any `with:` and looks at none of it: the fingerprint sees the whole entry anyway.
    private struct Anything: Decodable, Sendable {
        init(from decoder: any Decoder) throws {}
    }

    private let manifest = """
        app: pins
        migrations:
          1.1:
            - name: any
              id: bare
            - name: exec
              with:
                command: [/bin/true, --table, "dailys_1", --batch, '500']
                env: {MODE: fast, STEP: "1.1"}
              timeout: 30s
              description: exec with a command and an environment
          1.2:
            - name: any
              id: scalars
              with:
                zeta: [1, "1", 1.5, -0.0, 0x1F, 0o17, .inf, -.Inf, .NaN, ~, null, true, False, 99999999999999999999]
                alpha: "quote \\" backslash \\\\ newline \\n tab \\t bell \\a é 日本"
                "2.10": x
                "2.1": y
                empty: ""
                nested: {b: [], a: {}, c: [[1, 2], {k: v}]}
            - name: any
              id: anchors
              with:
                base: &base {retries: 2, table: dailys}
                copy: *base
                merged:
                  <<: *base
                  extra: !!str 12
                literal: |
                  two
                  lines
            - name: revised
              with: {note: text}
        """

    private func load() throws -> Manifest {
        var registry = StepRegistry.standard
        registry.register("any", parameters: Anything.self) { _ in }
        registry.register("revised", parameters: Anything.self, revision: "3") { _ in }
        return try Manifest.parse(ManifestSource(path: "pins.yaml", bytes: Array(manifest.utf8)), registry: registry)
    }

    @Test func fingerprintsOfVariedStepsAreThePinnedOnes() throws {
        let fingerprints = try load().steps.map { "\($0.name) \($0.fingerprint)" }
        #expect(fingerprints == [
            "any 443abfcd997e82d5",
            "exec 4d3181323838e5e3",
            "any 06c54c7bb7c90dbe",
            "any 3db7f2664c206e30",
            "revised 910b2b56fabd9079",
        ])
    }
}
