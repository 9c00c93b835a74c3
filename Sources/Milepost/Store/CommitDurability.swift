/// What a commit must survive by the time `LockedStore.commit(_:journal:durability:)` returns.
public enum CommitDurability: Sendable, Hashable {
    /// A power cut: the commit is on the disk. Every commit but the one below.
    case disk
    /// The death of this process (`kill -9`, a crash), not a power cut: a commit of what does not
    /// outlive the machine either, such as the process group a step's work runs in. The next
    /// `.disk` commit puts it on the disk too, and it is never torn; a store may write every commit
    /// to the disk (all but the file store do).
    case process
}
