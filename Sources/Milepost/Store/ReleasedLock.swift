/// Stops the process: a `LockedStore` of the store at `location` was used after its `release()`,
/// a programmer's error (the runner releases a lock once, after its last write).
package func usedAfterRelease(_ location: String) -> Never {
    preconditionFailure("a LockedStore of \(location) was used after release()")
}
