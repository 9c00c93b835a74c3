/// A run of consecutive steps recorded in the same store (`StepScope`): a run applies its pending
/// steps segment by segment, each against its own store, in their order.
struct StepSegment {
    let scope: StepScope
    var steps: [ManifestStep]

    /// `steps` cut where the scope changes.
    static func split(_ steps: [ManifestStep]) -> [StepSegment] {
        var segments: [StepSegment] = []
        for step in steps {
            if segments.last?.scope == step.scope {
                segments[segments.count - 1].steps.append(step)
            } else {
                segments.append(StepSegment(scope: step.scope, steps: [step]))
            }
        }
        return segments
    }
}
