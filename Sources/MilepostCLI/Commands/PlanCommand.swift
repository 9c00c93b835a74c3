import ArgumentParser
import Milepost
import MilepostSystem

extension MilepostCommand {
    struct PlanCommand: ContextualCommand, LoggingCommand {
        static let configuration = CommandConfiguration(
            commandName: "plan",
            abstract: "Show which steps a run to --to would run, and why the others would not. Writes nothing.",
            discussion: """
                Each step gets its status and the reason: pending, completed, above-target, skipped (at \
                or below the stored version: it will never run), interrupted or out-of-scope (its labels do not \
                match --labels, or its when: is not this kind of run: a fresh install or an upgrade). With --from it needs no \
                store at all: "what runs for a host upgrading from 2.0 to 2.7?" (an upgrade: a store that reached 2.0 \
                by runs from the baseline, so its one-time steps up to 2.0 are done and the contract and background \
                steps those runs passed are owed: a contract step of 2.0 runs first, as on a real store at 2.0); \
                a note says that a host with no store would be a fresh install from the manifest's \
                baseline: (when: fresh-install steps run, when: upgrade steps do not). Plan a fresh \
                install on an empty store. Repeat --from to plan every upgrade path in one call: each \
                plan under a heading naming its path (JSON: a list of plans).

                Under each step ahead, its expected duration: the median, p95 and longest of its completed \
                attempts as it is now, from the store's journal and each --history store (a staging store, a \
                CI run's), with how many runs that rests on, or "no history"; its expected: beside them. \
                --deadline sums the pending work at p95 (else expected:) and exits \(ExitStatus.deadline.rawValue) \
                when it is over, naming the steps that make up most of it. --out writes the plan for review: \
                `milepost run --plan FILE` runs exactly these steps, or refuses (exit \(ExitStatus.planChanged.rawValue)) \
                saying what changed.

                Examples:
                  milepost plan --to 2.7
                  milepost plan --to 2.7 --labels 'eu or us'
                  milepost plan --manifest app.yaml --from 2.0 --to 2.7 --format json   # CI
                  milepost plan --from 1.0 --from 2.0 --to 3.0   # every supported upgrade path
                  milepost plan --from 2.0 --to 2.7 --format markdown >> "$GITHUB_STEP_SUMMARY"
                  milepost plan --to 2.7 --history /srv/staging --deadline 90s --format github
                  milepost plan --to 2.7 --out plan.json   # then: milepost run --plan plan.json
                """)

        @OptionGroup var manifest: ManifestOptions
        @OptionGroup var variables: VariableOptions
        @OptionGroup var store: StoreOptions
        @Option(help: ArgumentHelp(
            "Plan from this version instead of the store's; repeat it to plan each upgrade path.", valueName: "version"),
            transform: Version.argument)
        var from: [Version] = []
        @OptionGroup var target: TargetOption
        @OptionGroup var labels: LabelOptions
        @OptionGroup var phase: PhaseOption
        @OptionGroup var hostStore: HostStoreOption
        @OptionGroup var history: HistoryOption
        @OptionGroup var deadline: DeadlineOption
        @Option(help: ArgumentHelp(
            "Write the plan to this file for review: `run --plan FILE` runs exactly its steps, or refuses.", valueName: "file"))
        var out: String?
        @Option(help: ArgumentHelp(
            "How to print the result: markdown for a GitHub job summary or pull-request comment; github adds "
                + "workflow annotations (a deadline that does not fit, a step awaiting approval)."))
        var format: PlanFormat = .text
        @OptionGroup var logging: LoggingOptions

        func validate() throws {
            if !from.isEmpty, store.store != nil { throw ValidationError("give either --store or --from, not both") }
            for (index, version) in from.enumerated() where from[..<index].contains(version) {
                throw ValidationError("--from \(version) is given twice")
            }
            if out != nil, !from.isEmpty { throw ValidationError("--out records a store's plan: give --store, not --from") }
        }

        func run(in context: CommandContext) async throws {
            try await reportingFailures {
                let target = try target.required()
                let loaded = try manifest.load(in: context, variables: try variables.forChecking, requiringAll: true)
                var options = RunOptions()
                options.labels = try labels.expression
                options.phase = try phase.resolved
                options.history = try history.open(in: context)
                let logger = logging.makeLogger()
                let plans: [Plan]
                let durations: StepDurations
                if from.isEmpty {
                    let runner = Runner(
                        store: try store.open(in: context, manifest: try manifest.named), hostStore: try hostStore.open(in: context),
                        options: options, logger: logger)
                    if let out {
                        let (plan, file) = try await runner.reviewablePlan(loaded, to: target, files: try reviewedFiles(loaded))
                        try write(file, to: out)
                        plans = [plan]
                    } else {
                        plans = [try await runner.plan(loaded, to: target)]
                    }
                    durations = try await runner.stepDurations()
                } else {
                    plans = Planner.plans(loaded, from: from, to: target, scope: PlanScope(labels: options.labels, phase: options.phase))
                    durations = try await Runner.stepDurations(of: options.history, logger: logger)
                }
                let budgets = try deadline.resolved.map { deadline in plans.map { DeadlineBudget($0, durations: durations, deadline: deadline) } }
                show(plans, manifest: loaded, durations: durations, budgets: budgets)
                if budgets?.contains(where: { !$0.fits }) == true { throw ExitStatus.deadline.exit }
            }
        }

        /// The files besides the manifest's that the plan depends on: the env file, the lock file when there is one.
        private func reviewedFiles(_ manifest: Manifest) throws -> [String] {
            let lockFile = LockFileOption.defaultPath(manifest: manifest.source.path)
            return [try variables.file].compactMap { $0 } + (FileCalls.exists(lockFile) ? [lockFile] : [])
        }

        /// Writes the plan file; a failed write exits 73.
        private func write(_ file: PlanFile, to path: String) throws {
            do throws(FileCallError) {
                try FileWriting.write(path, file.json)
            } catch {
                Terminal.err("milepost: could not write \(path.escapingControlCharacters()): \(error.reason)")
                throw ExitStatus.cannotWrite.exit
            }
        }

        private func show(_ plans: [Plan], manifest loaded: Manifest, durations: StepDurations, budgets: [DeadlineBudget]?) {
            switch format {
            case .json:
                let documents = plans.indices.map { index in
                    var document = PlanDocument(plans[index], manifest: loaded, durations: durations)
                    document.deadline = budgets.map { DeadlineDocument($0[index]) }
                    document.planFile = out
                    return document
                }
                // One plan is one object, as always; several --from are a list of them.
                if documents.count == 1 { try? JSONOutput.print(documents[0]) } else { try? JSONOutput.print(documents) }
            case .markdown:
                Terminal.out(plans.map { PlanMarkdown.render($0, manifest: loaded) }.joined(separator: "\n\n"))
            case .text, .github:
                let hint = CommandHint(store: store.store, manifest: manifest.manifest, hostStore: hostStore.hostStore)
                let colored = Terminal.stdoutIsTTY
                Terminal.out(plans.indices.map { index in
                    let plan = plans[index]
                    var text = PlanText.render(plan, app: loaded.app, hint: hint, colored: colored, durations: durations)
                    if plan.origin == .given {
                        text += "\n" + PlanText.withoutStoreNote(from: plan.from, baseline: loaded.baseline, hint: hint)
                    }
                    if let budget = budgets?[index] {
                        text += "\n" + Terminal.paint("deadline: " + budget.summary, budget.fits ? .green : .red, colored: colored)
                    }
                    return plans.count == 1 ? text : PlanText.pathHeading(plan, colored: colored) + "\n" + text
                }.joined(separator: "\n\n"))
                if let out { Terminal.err("milepost: wrote \(out.escapingControlCharacters()): run it with `\(hint.milepost("run", "--plan", out))`") }
                guard format == .github else { return }
                for (index, plan) in plans.enumerated() {
                    if let budget = budgets?[index], !budget.fits {
                        let largest = budget.largest.first?.step
                        Terminal.workflowCommand(DiagnosticRenderer.githubAnnotation(
                            .error, title: "milepost: over the deadline", file: largest.map { _ in loaded.source.path },
                            line: largest?.location.line, budget.summary))
                    }
                    if let gate = plan.approvalGate {
                        Terminal.workflowCommand(StepAnnotation.awaitingApproval(gate.step, file: loaded.source.path, hint: hint))
                    }
                }
            }
        }
    }
}
