extension ManifestStep {
    /// Whether a run goes on with this step after it was interrupted (`mark`) without `resolve`:
    /// it is idempotent, or resumable and it committed a cursor to resume at.
    public func runsAgain(afterInterruption mark: InProgressStep) -> Bool {
        idempotent || (resumable && mark.cursor != nil)
    }
}
