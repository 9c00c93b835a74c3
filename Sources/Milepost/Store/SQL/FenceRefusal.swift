/// A database store's checkpoint that its fence refused: another runner took the lock after this
/// run lost it, so nothing was written. The one wording of the PostgreSQL and MariaDB stores.
package enum FenceRefusal {
    /// The refusal, naming this run and `taker`, the run that took the lock after it (nil when it
    /// cannot be told); `howLost` says how a lock of this store is lost.
    package static func error(location: String, run: String, taker: String?, howLost: String) -> StoreError {
        .io(
            location: location,
            reason: .other("checkpoint refused by the fence: run \(taker ?? "?") took the lock after this run "
                + "(\(run)) lost it (\(howLost)); nothing was written. Run `milepost status` to see the stored state"))
    }
}
