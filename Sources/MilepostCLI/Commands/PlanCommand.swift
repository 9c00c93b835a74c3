import ArgumentParser
import Milepost

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

                Examples:
                  milepost plan --to 2.7
                  milepost plan --to 2.7 --labels 'eu or us'
                  milepost plan --manifest app.yaml --from 2.0 --to 2.7 --format json   # CI
                  milepost plan --from 1.0 --from 2.0 --to 3.0   # every supported upgrade path
                  milepost plan --from 2.0 --to 2.7 --format markdown >> "$GITHUB_STEP_SUMMARY"
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
        @Option(help: "How to print the result: markdown for a GitHub job summary or pull-request comment.")
        var format: PlanFormat = .text
        @OptionGroup var logging: LoggingOptions

        func validate() throws {
            if !from.isEmpty, store.store != nil { throw ValidationError("give either --store or --from, not both") }
            for (index, version) in from.enumerated() where from[..<index].contains(version) {
                throw ValidationError("--from \(version) is given twice")
            }
        }

        func run(in context: CommandContext) async throws {
            try await reportingFailures {
                let target = try target.required()
                let loaded = try manifest.load(in: context, variables: try variables.forChecking, requiringAll: true)
                var options = RunOptions()
                options.labels = try labels.expression
                options.phase = try phase.resolved
                let plans = if from.isEmpty {
                    [try await Runner(
                        store: try store.open(in: context, manifest: try manifest.named), hostStore: try hostStore.open(in: context),
                        options: options, logger: logging.makeLogger()
                    ).plan(loaded, to: target)]
                } else {
                    Planner.plans(loaded, from: from, to: target, scope: PlanScope(labels: options.labels, phase: options.phase))
                }
                switch format {
                case .json:
                    let documents = plans.map { PlanDocument($0, manifest: loaded) }
                    // One plan is one object, as always; several --from are a list of them.
                    if documents.count == 1 { try JSONOutput.print(documents[0]) } else { try JSONOutput.print(documents) }
                case .markdown:
                    Terminal.out(plans.map { PlanMarkdown.render($0, manifest: loaded) }.joined(separator: "\n\n"))
                case .text:
                    let hint = CommandHint(store: store.store, manifest: manifest.manifest, hostStore: hostStore.hostStore)
                    let colored = Terminal.stdoutIsTTY
                    Terminal.out(plans.map { plan in
                        var text = PlanText.render(plan, app: loaded.app, hint: hint, colored: colored)
                        if plan.origin == .given {
                            text += "\n" + PlanText.withoutStoreNote(from: plan.from, baseline: loaded.baseline, hint: hint)
                        }
                        return plans.count == 1 ? text : PlanText.pathHeading(plan, colored: colored) + "\n" + text
                    }.joined(separator: "\n\n"))
                }
            }
        }
    }
}
