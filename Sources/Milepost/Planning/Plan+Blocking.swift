extension Plan.Entry {
    /// An interrupted step a run stops at (exit 2) until it is resolved: neither idempotent nor
    /// resumable at a committed cursor (`ManifestStep.runsAgain(afterInterruption:)`).
    public var blocksRuns: Bool {
        guard status == .interrupted, case .interrupted(let mark) = why else { return false }
        return !step.runsAgain(afterInterruption: mark)
    }
}
