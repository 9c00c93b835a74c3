public import Milepost
import Dispatch
import FoundationEssentials
import Glibc
import MilepostSystem

extension MilepostCLI {
    /// `main` from a `main.swift` without `await`, so that the concurrency runtime starts only once
    /// the threads a run needs were granted (`ThreadHeadroom`): under a thread, process or
    /// address-space limit too low for them it prints why and exits 71 at once, where an `await` at
    /// the top level would hang in the runtime before the first line of `main` ran. An up-to-date
    /// `run` (`PreStart`) is answered before, on the main thread alone, so it needs no other thread.
    ///
    /// ```swift
    /// // Sources/titi-migrate/main.swift
    /// MilepostCLI.start(registry: .standard.installing(TiTiSteps.self, using: .ofCommandLine()), store: TiTiStore.init(spec:))
    /// ```
    public static func start(
        registry: @autoclosure () -> StepRegistry = .standard, store: @escaping StoreOpener = fileStore, storeSchemes: [String] = [],
        arguments: [String]? = nil, telemetry: TelemetryExporter? = nil
    ) -> Never {
        let (arguments, context) = prepare(
            registry: registry, store: store, storeSchemes: storeSchemes, arguments: arguments, telemetry: telemetry)
        do throws(SystemThread.Refused) {
            try ThreadHeadroom.check()
        } catch {
            if LogFormat.requested(in: arguments) == .json { JSONLogHandler.frameStandardError() }
            Terminal.err(
                "milepost: error: cannot start the \(ThreadHeadroom.threads) threads milepost needs: \(error.errno); "
                    + "raise the process or thread limit (RLIMIT_NPROC, the cgroup's pids.max, systemd's TasksMax=) "
                    + "or the address-space limit (RLIMIT_AS)",
                isError: true)
            exit(ExitStatus.threadsRefused.rawValue)
        }
        Task { @MainActor in await run(arguments, in: context) }
        dispatchMain()
    }
}
