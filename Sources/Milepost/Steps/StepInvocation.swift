import Logging
import MilepostSystem

/// Everything about one attempt of one step except its typed parameters.
struct StepInvocation: Sendable {
    var id: String
    var name: String
    var threshold: Version
    var from: Version
    var to: Version
    var attempt: Int
    var logger: Logger
    var manifestDirectory: String
    var stopGrace: StopGrace
    var scripts: StoreScripts?
    var resumeCursor: String?
    var reporting: StepReporting
    var secrets: SecretValues

    func context<Parameters: Sendable>(with parameters: Parameters) -> StepContext<Parameters> {
        StepContext(
            id: id, name: name, threshold: threshold, from: from, to: to, parameters: parameters,
            attempt: attempt, logger: logger, manifestDirectory: manifestDirectory,
            stopGrace: stopGrace, scripts: scripts, resumeCursor: resumeCursor,
            reporting: reporting, secrets: secrets)
    }
}
