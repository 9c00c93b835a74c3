import Foundation
public import Milepost

/// What TiTi does at every start, before it opens its data: run the one-time pre-start steps up to
/// its version, and find the "what's new" notice to show once, on the first launch of a new
/// version. The long steps (`phase: background`: `removeEmptyDailys`) run after launch, off the
/// launch path, in a task the app cancels when it is suspended.
///
/// ```swift
/// let launch = TiTiLaunch(dataDirectory: dataDirectory, manifest: bundledManifest)
/// let started = try await launch.start(at: Version("2.7"))
/// if let notice = started.whatsNew { show(notice) }
/// // The app is on screen; the long work goes on beside it.
/// backgroundWork = Task { try await launch.runBackgroundSteps(at: Version("2.7")) }
/// // On suspension (scenePhase .background, applicationDidEnterBackground):
/// backgroundWork?.cancel()   // the step stops at its next batch; its cursor is kept
/// ```
public struct TiTiLaunch: Sendable {
    /// Holds `dailys.json` and the Milepost store `.milepost/`.
    public var dataDirectory: String
    /// The manifest shipped with the app.
    public var manifest: String
    public var legacyDefaults: LegacyDefaults

    public init(dataDirectory: String, manifest: String, legacyDefaults: LegacyDefaults = .standard()) {
        self.dataDirectory = dataDirectory
        self.manifest = manifest
        self.legacyDefaults = legacyDefaults
    }

    /// The registry TiTi's manifest is read with: its own steps, without `exec`, working on the
    /// user's records in this data directory (`dailyFile`), wherever the manifest is.
    public var registry: StepRegistry { Self.registry(for: dailyFile) }

    /// The registry of TiTi's steps working on `file`.
    public static func registry(for file: DailyFile) -> StepRegistry {
        StepRegistry().installing(TiTiSteps.self, using: file)
    }

    public var store: TiTiStore {
        TiTiStore(directory: dataDirectory + "/.milepost", legacyDefaults: legacyDefaults)
    }

    /// Runs every pending step of `phase` up to `version`; when nothing is pending it reads only
    /// the state. `.preStart` (the launch) leaves the background steps waiting; `.background` runs
    /// them too, after anything a launch would run. `onProgress` gets the steps' progress.
    /// Returns once the store is at `version`; throws `RunFailure` otherwise (a step failed, the
    /// task was cancelled mid-step, …), with the step and the error it threw.
    ///
    /// The app mode: a fresh install — nothing stored, no legacy `lastUpdateVersion`, no
    /// `dailys.json` — records `version` and runs no step (`FreshInstallPolicy.record`): a new
    /// user has no 2.0 data for 2.1's cleanup, now or ever. A data directory with `dailys.json`
    /// and nothing stored is a 2.0 install (2.0 kept no version): its first launch records the
    /// manifest's `baseline:` (2.0) as `milepost baseline` would, so the run is an upgrade from
    /// there. A step the app was killed in runs again at the next launch
    /// (`InterruptedStepPolicy.retry`): a phone has no one to run `resolve`, so every step TiTi
    /// ships is safe to run again (`capRunawayDailys` is idempotent, `removeEmptyDailys`
    /// resumes at its cursor).
    public func migrate(
        to version: Version, phase: StepPhase = .preStart, onProgress: (@Sendable (RunProgress) -> Void)? = nil
    ) async throws -> RunReport {
        var options = Self.runOptions(phase: phase)
        options.onProgress = onProgress
        let runner = Runner(store: store, options: options)
        let load = { [manifest, registry] in try Manifest.load(path: manifest, registry: registry) }
        if try await store.readState() == nil, FileManager.default.fileExists(atPath: dailyFile.path) {
            _ = try await runner.maintenance.baseline(try load().baseline)
        }
        return try await runner.migrate(to: version, manifest: load)
    }

    /// The options of TiTi's runs of `phase`: the app mode (see `migrate(to:phase:onProgress:)`).
    public static func runOptions(phase: StepPhase) -> RunOptions {
        var options = RunOptions()
        options.phase = phase
        options.freshInstall = .record
        options.interruptedSteps = .retry
        return options
    }

    /// The user's records, `dailys.json` in the data directory.
    public var dailyFile: DailyFile { DailyFile(inDataDirectory: dataDirectory) }

    /// Runs the background steps up to `version` (`removeEmptyDailys`): what the app calls after
    /// launch, once `start(at:)` returned and the UI is up, in a `Task` it cancels when the app is
    /// suspended (or is about to be terminated).
    ///
    /// Cancelling the task stops the step under way at its next batch: the call throws `RunFailure`
    /// with outcome `.interrupted`, and the cursor the step committed stays in the store (cancelled
    /// while it still waits for the store's lock, it throws `CancellationError` instead, and nothing ran). The next call —
    /// at the next launch or when the app is active again — resumes the step at that cursor, so
    /// a suspension costs at most the batch under way. Meanwhile `start(at:)` is not held by it: a
    /// launch leaves a background step waiting, even one stopped mid-way. Call it at every launch;
    /// once the work is done it reads the state, plans, finds nothing and returns `.upToDate`
    /// without taking the lock. It runs what `start(at:)` would run first, so it is safe to call
    /// even when no launch ran. `onProgress` gets each batch's progress, for a "cleaning up" bar.
    public func runBackgroundSteps(
        at version: Version, onProgress: (@Sendable (RunProgress) -> Void)? = nil
    ) async throws -> RunReport {
        try await migrate(to: version, phase: .background, onProgress: onProgress)
    }

    /// The one-time notices, by the version that brings them.
    public static let whatsNew: [Version: String] = [
        Version("2.7"): "What's new in 2.7: a timer forgotten overnight no longer counts more than 16 hours a day.",
    ]

    /// What a start did: the run, and the notice to show now (nil when there is none).
    public struct Started: Sendable {
        public var report: RunReport
        public var whatsNew: String?
    }

    /// Runs the pre-start steps up to `version` and returns its "what's new" notice when this
    /// launch is the first of `version` after an upgrade: the store had reached an earlier version
    /// and never this one (asked before the run, which then records `version`), and the run
    /// succeeded. A fresh install shows nothing; a failed run throws `RunFailure` and the next
    /// launch asks again.
    ///
    /// The background steps are left waiting (`report.plan?.waiting`) for `runBackgroundSteps(at:)`;
    /// the pre-start run still records `version`, so the notice does not wait for them: it
    /// announces 2.7's cap on runaway days, which the pre-start step `capRunawayDailys` did
    /// before this returns. A notice about background work would belong after that work, not here.
    public func start(at version: Version) async throws -> Started {
        let history = try await store.versionHistory()
        let firstAfterUpgrade = history.currentVersion != nil && history.isFirstLaunch(of: version)
        let report = try await migrate(to: version)
        let reached = report.outcome == .succeeded || report.outcome == .upToDate
        return Started(report: report, whatsNew: firstAfterUpgrade && reached ? Self.whatsNew[version] : nil)
    }
}
