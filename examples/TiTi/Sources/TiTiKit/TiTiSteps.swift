public import Milepost

/// TiTi's one-time steps, for `StepRegistry.installing(TiTiSteps.self)`.
///
/// Both take `file:` (the data file, relative to the manifest; default `dailys.json`).
/// `removeEmptyDailys` works in batches and resumes at its cursor (`RemoveEmptyDailys.swift`).
public enum TiTiSteps: StepPlugin {
    /// `with:` of `capRunawayDailys`.
    public struct Cap: Decodable, Sendable {
        /// The most a day can hold; longer days are cut to this (`16h`).
        public var limit: Duration
        public var file: String?
    }

    public static func register(in registry: inout StepRegistry) {
        registry.register(
            "removeEmptyDailys", parameters: RemoveEmpty.self, description: "Delete the empty dailys TiTi 2.0 left behind",
            idempotent: true, resumable: true, revision: "1", removeEmptyDailys
        )
        registry.register(
            "capRunawayDailys", parameters: Cap.self, description: "Cut days a forgotten timer ran through",
            idempotent: true, revision: "1"
        ) { context in
            let file = DailyFile(context.parameters.file, relativeTo: context.manifestDirectory)
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
