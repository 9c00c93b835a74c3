/// The one failure channel of an app's launch: the run either reaches its target or throws.
extension Runner {
    /// Runs every pending step up to `target`, as `run(to:manifest:)` does, and returns only when
    /// the store is there (or a dry run, or an allowed downgrade, did what was asked): every other
    /// end throws `RunFailure`, with the step it is about and the error that step threw. So
    /// `try await runner.migrate(…)` cannot carry on after a failed step, as an ignored report can.
    ///
    /// ```swift
    /// try await Runner(store: FileStore(path: dataDirectory + "/.milepost"), options: options)
    ///     .migrate(to: "2.7") { try Manifest.load(path: manifestPath, registry: registry) }
    /// ```
    /// - returns: the run's report (`.succeeded`, `.upToDate`, …), for what else it tells.
    /// - throws: `RunFailure` for every outcome that is a failure (`RunReport.Outcome.isFailure`);
    ///   the manifest's errors and the store's, as `run(to:manifest:)` throws them.
    @discardableResult
    public func migrate(to target: Version, manifest loadManifest: () throws -> Manifest) async throws -> RunReport {
        let report = try await run(to: target, manifest: loadManifest)
        if let failure = RunFailure(report) { throw failure }
        return report
    }
}
