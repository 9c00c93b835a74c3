import Milepost

/// `status`'s list of every step of the manifest with its state on this store, as goose's and
/// dbmate's `status` list theirs: completed (and when), pending, waiting for its phase, and the
/// plan's other statuses (`Plan.Status`), in run order.
enum StatusSteps {
    static func lines(_ plan: Plan, state: StoredState?, colored: Bool, now: Timestamp) -> [String] {
        guard !plan.entries.isEmpty else { return [] }
        let completedAt = Dictionary((state?.completed ?? []).map { ($0.id, $0.at) }, uniquingKeysWith: { _, last in last })
        let width = plan.entries.map(\.step.id.count).max() ?? 0
        let statusWidth = PlanText.statusColumn(plan.entries)
        return ["steps:"] + plan.entries.map { entry in
            let style: Terminal.Style = switch entry.status {
            case .completed: .green
            case .pending, .running, .waiting: .yellow
            case .interrupted, .awaitingApproval: .red
            case .skipped, .aboveTarget, .outOfScope, .reverted: .dim
            }
            // A step completed as the one it replaces (`replaces:`) was, when that one was.
            let when = (completedAt[entry.step.id] ?? entry.step.replaces.flatMap { completedAt[$0] })
                .map { "\($0) (\(Elapsed.age(of: $0, now: now)))" }
            let detail = entry.status == .completed ? when ?? "" : PlanText.tags(of: entry.step)
            return "  " + Terminal.paint(entry.status.rawValue.padding(statusWidth), style, colored: colored) + " "
                + (detail.isEmpty ? entry.step.id : entry.step.id.padding(width) + "  " + detail).escapingControlCharacters()
        }
    }
}
