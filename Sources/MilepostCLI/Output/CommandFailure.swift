import ArgumentParser
import Milepost
import MilepostSystem

/// Maps library errors to the documented exit codes and prints them for humans.
enum CommandFailure {
    static func exitCode(for error: any Error) -> Int32 {
        switch error {
        case let error as ManifestError:
            switch error {
            case .unreadable: ExitStatus.manifestNotFound.rawValue
            case .invalid: ExitStatus.invalidManifest.rawValue
            }
        case let error as StoreError:
            switch error {
            case .io(_, .invalidURL): ExitStatus.usage.rawValue
            case .unreadableState, .io: ExitStatus.storeIO.rawValue
            case .lockTimeout: ExitStatus.lockTimeout.rawValue
            case .unreachable: ExitStatus.storeUnreachable.rawValue
            }
        case let error as UnrecordedStepOutcome: exitCode(for: error.storeError)
        case is StoreBusy: ExitStatus.lockTimeout.rawValue
        case is NewStoreRefused: ExitStatus.storeUnreachable.rawValue
        case is StepStillRunningError: ExitStatus.lockTimeout.rawValue
        case is StoreMaintenance.MaintenanceError, is OtherApplicationError, is HostStoreRequired, is HostStoreIsFleetStore, is StoreCopy.Refusal:
            ExitStatus.usage.rawValue
        case let error as RevertError:
            switch error {
            case .irreversible: ExitStatus.invalidManifest.rawValue
            case .unfinished: ExitStatus.needsResolve.rawValue
            case .notBelow, .nothingStored: ExitStatus.usage.rawValue
            }
        case let error as Runner.ApprovalError:
            if case .planChanged = error { ExitStatus.planChanged.rawValue } else { ExitStatus.usage.rawValue }
        case let error as SignalCancellation.Interrupted: error.exitStatus
        default: ExitStatus.stepFailed.rawValue
        }
    }

    /// What to do next, for the errors whose remedy is a `milepost` command or flag: the library's
    /// messages name none, the command line words them with `hint`.
    static func advice(for error: any Error, hint: CommandHint) -> String? {
        switch error {
        case StoreMaintenance.MaintenanceError.stateExists:
            "pass --force to replace it"
        case StoreCopy.Refusal.targetHasState:
            "pass --force to replace its state (the copied journal records are appended to its own)"
        case RevertError.unfinished(let to):
            "finish it first: `\(hint.milepost("revert", "--to", to.text))`"
        case RevertError.notBelow:
            "`\(hint.milepost("run", "--to", "VERSION"))` moves a store up"
        case StoreError.unreadableState(let location, let reason) where !reason.isPermissionDenied && reason != .symbolicLink:
            // The file named, and what is left looked at before starting over: for the file store's
            // write-ahead log (`state.log`), `state.json` still holds the state, and baseline would refuse.
            "restore it from a backup, or move \(location) away and run `\(hint.milepost("status"))`: "
                + "if it shows no state, `\(hint.milepost("baseline", "VERSION"))` starts over"
        case let error as StoreBusy:
            BusyAdvice.text(error, hint: hint)
        case is NewStoreRefused:
            "check --\(OptionNames.store) (or \(Setting.variable(OptionNames.store))) for a typo; to start this store's history, "
                + "run once without --\(OptionNames.existingStore) (\(Setting.variable(OptionNames.existingStore))), or "
                + "`\(hint.milepost("baseline", "VERSION"))` if the host already has the effects of the steps up to VERSION"
        case let error as StepStillRunningError:
            "wait for it to end (a longer --\(OptionNames.lockTimeout) waits longer), or stop it: `kill -TERM -- -\(error.processGroup)`"
        case let error as UnrecordedStepOutcome:
            switch error.outcome {
            case .succeeded:
                "once the store can be written again, `\(hint.milepost("resolve", error.step, "--done"))` records it as done"
            case .failed:
                "once the store can be written again, `\(hint.milepost("resolve", error.step, "--retry"))` lets the next run try it again"
            }
        default:
            nil
        }
    }

    /// Prints `error` on stderr (diagnostics compiler-style) and returns the exit code to use.
    static func report(_ error: any Error, hint: CommandHint = CommandHint()) -> ExitCode {
        switch error {
        case ManifestError.invalid(let diagnostics, let source):
            let renderer = DiagnosticRenderer(source: source, colored: Terminal.stderrIsTTY)
            for diagnostic in diagnostics { Terminal.err(renderer.render(diagnostic), isError: diagnostic.severity == .error) }
            Terminal.err("milepost: \(ManifestError.summary(diagnostics, source: source))", isError: true)
        case ManifestError.unreadable(let path, let reason):
            // A first try in a directory without one: say how to start one.
            let start = FileCalls.exists(path) ? ""
                : "; `\(CommandHint(manifest: path == ManifestOptions.defaultPath ? nil : path).milepost("init"))` writes a starting one"
            Terminal.err("milepost: error: cannot read the manifest \(path): \(reason)\(start)".escapingControlCharacters(), isError: true)
        default:
            let advice = advice(for: error, hint: hint).map { "; \($0)" } ?? ""
            Terminal.err("milepost: error: \(error)\(advice)".escapingControlCharacters(), isError: true)
        }
        return ExitCode(exitCode(for: error))
    }
}

/// Runs a command body, turning library errors into their exit codes.
func reportingFailures(hint: CommandHint = CommandHint(), _ body: () async throws -> Void) async throws {
    do {
        try await body()
    } catch let exit as ExitCode {
        throw exit
    } catch let error as ValidationError {
        throw error
    } catch {
        throw CommandFailure.report(error, hint: hint)
    }
}
