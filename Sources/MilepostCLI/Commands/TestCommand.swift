import ArgumentParser
import Milepost
import MilepostSystem

extension MilepostCommand {
    struct TestCommand: ContextualCommand, LoggingCommand {
        static let configuration = CommandConfiguration(
            commandName: "test",
            abstract: "Crash-test an upgrade: kill it at every commit point, run it again, compare.",
            discussion: """
                Runs each upgrade path (--from, repeatable; without it, a fresh install) to --to in a sandbox \
                of its own: a scratch directory (MILEPOST_TEST_DIR, for the steps, --setup and --verify) and a \
                fresh store (--store: file, sqlite, or a postgres:// or mysql:// URL, a schema or a database \
                per trial). The uninterrupted run records every commit point it passes; then each point gets \
                a trial: this binary killed with SIGKILL there, the same run again (resolve --retry where it \
                stops at the interrupted step, as an operator would), and --verify's output compared with \
                the uninterrupted run's. --previous-manifest adds a replica of the previous release (the \
                highest --from) at each point: it must start until a contract step began, and be refused \
                after. Exits 0 only when every trial agrees; 1 names each step, point and difference.

                Examples:
                  milepost test --to 2.7 --from 2.0 --setup ./seed.sh --verify ./dump.sh
                  milepost test --to 3.0 --from 2.0 --from 2.9 --previous-manifest release-2.9.yaml --phase contract
                  milepost test --to 2.7 --from 2.0 --store 'postgres://ci@db/app' --verify 'psql -Atc "select …"'
                  milepost test --to 2.7 --from 2.0 --max-trials 20 --seed 7 --format github
                """)

        @OptionGroup var manifest: ManifestOptions
        @OptionGroup var variables: VariableOptions
        @OptionGroup var target: TargetOption
        @Option(help: ArgumentHelp(
            "An upgrade path starts from this version; repeat it for each path (default: a fresh install).",
            valueName: "version"), transform: Version.argument)
        var from: [Version] = []
        @Option(help: ArgumentHelp(
            "A shell command that puts each sandbox's data as the path's release had it (MILEPOST_TEST_DIR, MILEPOST_TEST_FROM).",
            valueName: "command"))
        var setup: String?
        @Option(help: ArgumentHelp(
            "A shell command that prints what is compared after each trial (a query's output, a file's hash).", valueName: "command"))
        var verify: String?
        @Option(help: ArgumentHelp(
            "Each trial's store: file (default), sqlite, or a postgres:// or mysql:// URL (a schema or database per trial).",
            valueName: "kind-or-url"))
        var store: String?
        @Option(help: ArgumentHelp(
            "The previous release's manifest: its replica runs to the highest --from at each commit point.", valueName: "path"))
        var previousManifest: String?
        @OptionGroup var phase: PhaseOption
        @Option(help: ArgumentHelp("Orders and samples the commit points (printed with the result).", valueName: "number"))
        var seed: UInt64?
        @Option(help: ArgumentHelp("At most this many trials per path, sampled with --seed.", valueName: "count"))
        var maxTrials: Int?
        @Option(help: "How to print the result: github adds an annotation at the manifest line of each step that differs.")
        var format: ReportFormat = .text
        @OptionGroup var logging: LoggingOptions

        func validate() throws {
            for (index, version) in from.enumerated() where from[..<index].contains(version) {
                throw ValidationError("--from \(version) is given twice")
            }
            if let maxTrials, maxTrials < 1 { throw ValidationError("--max-trials must be at least 1") }
            if previousManifest != nil, from.isEmpty {
                throw ValidationError("--previous-manifest needs --from: the previous release is the highest --from")
            }
        }

        func run(in context: CommandContext) async throws {
            try await reportingFailures {
                let target = try target.required()
                for version in from where version >= target {
                    throw ValidationError("--from \(version) is not below --to \(target)")
                }
                let loaded = try manifest.load(in: context, variables: try variables.forChecking)
                let manifestPath = try FileCalls.resolvingLinks(try manifest.path)
                let runPhase = try phase.resolved
                let selection = seed.map { TrialSelection(seed: $0, maxTrials: maxTrials) } ?? .random(maxTrials: maxTrials)
                let token = String(UInt32.random(in: 0...UInt32.max), radix: 16)
                let test = CrashTest(
                    manifestPath: manifestPath, manifest: loaded, target: target, paths: from.isEmpty ? [nil] : from,
                    setup: setup, verify: verify, stores: try TrialStores(store, schemes: context.stores.schemes, token: token),
                    previous: try previousManifest.map { (try FileCalls.resolvingLinks($0), from.max()!) },
                    runFlags: ["--phase", runPhase.rawValue] + (try variables.file.map { ["--env-file", $0] } ?? []),
                    selection: selection,
                    processes: TrialProcesses(executable: try FileCalls.resolvingLinks("/proc/self/exe")),
                    openStore: { try context.openStore($0) },
                    onTrial: { [format] from, number, count, crash in
                        guard format != .json else { return }
                        Terminal.err("trial \(number)/\(count) \(from.map { "from \($0)" } ?? "fresh install"): \(crash)".escapingControlCharacters())
                    })
                let report = try await test.run()
                switch format {
                case .json:
                    try JSONOutput.print(TestDocument(report, manifest: loaded, store: store ?? "file"))
                case .text, .github:
                    Terminal.out(TestText.render(report, colored: Terminal.stdoutIsTTY))
                    if format == .github {
                        for annotation in TestText.annotations(report, manifest: loaded) { Terminal.workflowCommand(annotation) }
                    }
                }
                if !report.agrees { throw ExitStatus.stepFailed.exit }
            }
        }
    }
}
