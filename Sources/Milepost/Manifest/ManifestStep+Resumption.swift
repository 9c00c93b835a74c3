extension ManifestStep {
    /// Whether a run goes on with this step after it was interrupted (`mark`) without `resolve`:
    /// it is idempotent, or resumable and it committed a cursor to resume at. An interrupted revert
    /// (`direction: revert`) never goes on by itself: a revert may have done part of its undoing.
    public func runsAgain(afterInterruption mark: InProgressStep) -> Bool {
        mark.direction != .revert && (idempotent || (resumable && mark.cursor != nil))
    }
}
