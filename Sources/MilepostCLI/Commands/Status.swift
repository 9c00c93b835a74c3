import ArgumentParser
import Milepost

extension MilepostCommand {
    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show the stored version, the last run, the lock, and what is pending, drifted or never ran.",
            discussion: """
                Reads the manifest when --manifest is given or milepost.yaml exists. Writes nothing.
                Example: milepost status --store /var/lib/app/milepost --to 2.7
                """)

        @OptionGroup var store: StoreOptions
        @OptionGroup var manifest: ManifestOptions
        @OptionGroup var target: TargetOption
        @Option(help: "text or json.") var format: OutputFormat = .text
        @OptionGroup var logging: LoggingOptions

        func validate() throws {
            if format == .github { throw ValidationError("status prints text or json") }
        }

        func run() async throws {
            try await reportingFailures {
                let loaded = manifest.isAvailable ? try manifest.load() : nil
                let runner = Runner(store: try store.open(), logger: logging.makeLogger())
                let report = try await runner.status(manifest: loaded, to: try target.resolved())
                if format == .json {
                    try JSONOutput.print(StatusDocument(report))
                } else {
                    Terminal.out(StatusText.render(report, colored: Terminal.stdoutIsTTY))
                }
            }
        }
    }
}
