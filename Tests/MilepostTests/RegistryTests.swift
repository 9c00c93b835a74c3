import Milepost
import Testing

/// Composing registries: copies, plugins, and the programmer errors that trap.
@Suite struct RegistryTests {
    enum Reports: StepPlugin {
        static func register(in registry: inout StepRegistry) {
            registry.register("summarize", description: "Write the weekly summary") { _ in }
        }
    }

    enum Backups: StepPlugin {
        static func register(in registry: inout StepRegistry) {
            registry.register("snapshot", idempotent: true, revision: "2") { _ in }
        }
    }

    @Test func installingReturnsACopyAndLeavesTheOriginalAlone() {
        let base = StepRegistry()
        let composed = base.installing(Reports.self).installing(Backups.self)
        #expect(base.all.isEmpty)
        #expect(composed.all.map(\.name) == ["snapshot", "summarize"])
        #expect(composed["snapshot"]?.idempotent == true)
        #expect(composed["snapshot"]?.revision == "2")
        #expect(composed["summarize"]?.description == "Write the weekly summary")
    }

    @Test func theStandardRegistryKeepsTheBuiltinStepsUnlessLeftOut() {
        #expect(StepRegistry.standard.installing(Reports.self, Backups.self).all.map(\.name) == ["exec", "snapshot", "summarize"])
        #expect(StepRegistry().installing(Reports.self).all.map(\.name) == ["summarize"])
    }

    @Test func installMutatesInPlaceLikeInstalling() {
        var registry = StepRegistry()
        registry.install(Reports.self, Backups.self)
        #expect(registry.all.map(\.name) == StepRegistry().installing(Reports.self, Backups.self).all.map(\.name))
    }

    @Test func definitionsNameThePluginThatContributedThem() {
        var registry = StepRegistry.standard.installing(Reports.self)
        registry.register("direct") { _ in }
        #expect(registry["summarize"]?.plugin == "Reports")
        #expect(registry["exec"]?.plugin == "BuiltinSteps")
        #expect(registry["direct"]?.plugin == nil)
        #expect(registry["direct"]?.parametersTypeName == "NoParameters")
    }

    @Test func registeringANameTwiceTrapsNamingBothOrigins() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var registry = StepRegistry.standard
            registry.register("exec") { _ in }
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains(
            "Milepost: the step 'exec' is registered twice (first by the plugin BuiltinSteps, then directly); "
                + "register each name once, or give one of the plugins a namespace"), "\(stderr)")
    }

    @Test func installingAPluginTwiceTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = StepRegistry.standard.installing(BuiltinSteps.self)
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("the step 'exec' is registered twice (first by the plugin BuiltinSteps, then by the plugin BuiltinSteps)"), "\(stderr)")
    }

    @Test func anInvalidNameTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var registry = StepRegistry()
            registry.register("9lives") { _ in }
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("Milepost: '9lives' is not a valid step name ([A-Za-z_][A-Za-z0-9_.:-]*)"), "\(stderr)")
    }
}
