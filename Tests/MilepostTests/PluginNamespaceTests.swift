import Milepost
import MilepostTestSupport
import Synchronization
import Testing

/// Plugins with a namespace: `search:reindex` in manifests, two plugins may reuse a short name.
@Suite struct PluginNamespaceTests {
    static let ran = Mutex<[String]>([])

    enum SearchSteps: StepPlugin {
        static let namespace: String? = "search"
        static func register(in registry: inout StepRegistry) {
            registry.register("reindex") { context in
                PluginNamespaceTests.ran.withLock { $0.append("\(context.name) as \(context.id)") }
            }
        }
    }

    enum CacheSteps: StepPlugin {
        static let namespace: String? = "cache"
        static func register(in registry: inout StepRegistry) {
            registry.register("reindex") { context in
                PluginNamespaceTests.ran.withLock { $0.append("\(context.name) as \(context.id)") }
            }
        }
    }

    static let registry = StepRegistry().installing(SearchSteps.self, CacheSteps.self)

    @Test func namespacedStepsRunUnderTheirFullNames() async throws {
        let fixture = try RunnerFixture()
        let manifest = try fixture.manifest("""
            migrations:
              "3.0":
                - search:reindex
                - name: cache:reindex
                  id: warm
            """, registry: Self.registry)
        Self.ran.withLock { $0.removeAll() }
        let report = try await fixture.runner().run(to: Version("3.0")) { manifest }
        #expect(report.outcome == .succeeded)
        #expect(Self.ran.withLock { $0 } == ["search:reindex as 3.0/search:reindex", "cache:reindex as 3.0/warm"])
        #expect(Self.registry.all.map(\.name) == ["cache:reindex", "search:reindex"])
    }

    @Test func theShortNameAloneIsUnknownAndTheFullOneIsSuggested() throws {
        let source = ManifestSource(path: "m.yaml", bytes: Array("migrations:\n  1: [search:reindx]\n".utf8))
        #expect {
            _ = try Manifest.parse(source, registry: Self.registry)
        } throws: { error in
            guard case ManifestError.invalid(let diagnostics, _) = error, let first = diagnostics.first else { return false }
            return first.message == "unknown step 'search:reindx'" && first.notes.map(\.message) == ["did you mean 'search:reindex'?"]
                && first.location?.description == "2:7"
        }
    }
}
