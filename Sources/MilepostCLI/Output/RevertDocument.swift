import Milepost

/// `milepost revert --format json`: one document (docs/json.md).
struct RevertDocument: Encodable {
    struct Irreversible: Encodable {
        var id: String
        var reason: String
    }

    var format = JSONOutput.format
    var command = "revert"
    var outcome: String
    var exitCode: Int32
    var run: String?
    var app: String?
    var from: String
    var to: String
    /// The reverts the revert runs (or, for a dry run, would run), in order.
    var reverts: [String]
    /// Completed steps above `to` without a revert; the revert refuses while there is any.
    var irreversible: [Irreversible]
    var steps: [RunDocument.Step]
    var interrupted: InProgressStep?
    var signal: Int32?

    init(_ report: RevertReport, exitCode: Int32, signal: Int32?) {
        outcome = report.outcome.rawValue
        self.exitCode = exitCode
        run = report.run
        app = report.app
        from = report.from.text
        to = report.to.text
        reverts = report.plan.steps.map(\.id)
        irreversible = report.plan.irreversible.map { Irreversible(id: $0.id, reason: $0.reason.rawValue) }
        steps = report.steps.map(RunDocument.Step.init)
        interrupted = report.interrupted
        self.signal = signal
    }
}
