public import Milepost

/// TiTi's one-time steps, for `StepRegistry.installing(TiTiSteps.self, using: dailyFile)`: they
/// work on the app's own data file, which the app (`TiTiLaunch`), `titi-migrate` and the tests each
/// hand them, wherever the manifest is.
/// `removeEmptyDailys` works in batches and resumes at its cursor (`RemoveEmptyDailys.swift`).
public enum TiTiSteps: DependentStepPlugin {
    /// `with:` of `capRunawayDailys`.
    public struct Cap: Decodable, Sendable {
        /// The most a day can hold; longer days are cut to this (`16h`).
        public var limit: Duration
    }

    public static func register(in registry: inout StepRegistry, using file: DailyFile) {
        registry.register(
            "removeEmptyDailys", parameters: RemoveEmpty.self, description: "Delete the empty dailys TiTi 2.0 left behind",
            idempotent: true, resumable: true, revision: "1"
        ) { context in
            try await removeEmptyDailys(context, in: file)
        }
        registry.register(
            "capRunawayDailys", parameters: Cap.self, description: "Cut days a forgotten timer ran through",
            idempotent: true, revision: "1"
        ) { context in
            let limit = Double(context.parameters.limit.components.seconds)
            var dailys = try file.load()
            let runaway = dailys.indices.filter { dailys[$0].totalTime > limit }
            for index in runaway { dailys[index].totalTime = limit }
            try Task.checkCancellation()
            if !runaway.isEmpty { try file.save(dailys) }
            context.logger.info("capped \(runaway.count) dailys at \(context.parameters.limit)", metadata: ["file": "\(file.path)"])
        }
    }
}
