import Milepost

/// The `--labels` that a suggested `milepost run` needs: the expression the plan was made with, or,
/// when the store is already at the target (where a plain run answers "up to date" from the state
/// alone), one that brings in the labelled steps an earlier run left out.
enum LabelHint {
    static func expression(for plan: Plan?) -> String? {
        guard let plan else { return nil }
        if let labels = plan.scope.labels { return labels.text }
        guard plan.from == plan.to else { return nil }
        var labels: [String] = []
        for step in plan.pending { for label in step.labels where !labels.contains(label) { labels.append(label) } }
        return labels.isEmpty ? nil : labels.joined(separator: " or ")
    }
}
