extension Plan {
    /// An error for each completed step whose `scope:` changed after it ran (`scopeMoved`), located
    /// at the step: what a run refuses with (exit 65) and `validate --store` reports. Moving a
    /// completed step between the fleet's store and the hosts' would run it again where its new
    /// scope records it, so the change needs a decision in the manifest instead.
    public func scopeMoveErrors(file: String) -> [Diagnostic] {
        scopeMoved.map { entry in
            Diagnostic(
                .error, "step \(entry.step.id) is scope: \(entry.step.scope.rawValue), but it \(entry.reason)", file: file,
                at: entry.step.location,
                notes: [.init("a completed step never runs again, in either store: restore its scope, or add a new step (a new id) "
                    + "for the work its new scope must do")])
        }
    }
}
