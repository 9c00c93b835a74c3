import MilepostSystem

/// The process group a step's work runs in (`exec`'s child leads one), and the machine it runs on:
/// kept in the step's in-progress mark so that, when its runner is killed and the group lives on,
/// the next run on that machine sees it alive and waits for it instead of starting a second copy.
public struct StepProcessGroup: Codable, Sendable, Equatable {
    /// The group id: the pid of the process that leads it.
    public var id: Int32
    /// The host name of the machine (`gethostname`), for people: a name can change while the
    /// group runs (`hostname`, a container's own name), so liveness does not go by it (`isHere`).
    public var host: String
    /// The machine's boot (`/proc/sys/kernel/random/boot_id`): after a reboot the group is gone.
    public var bootID: String
    /// The pid namespace the id is a pid in (`/proc/self/ns/pid`): containers sharing a host name
    /// and a kernel have different ones.
    public var pidNamespace: String
    /// When the group's leader started (clock ticks after boot, `/proc/PID/stat`): a live process
    /// with the group's id that started at another time leads a new group that got the recycled
    /// id, not this one. Nil in marks written before it was recorded.
    public var leaderStart: UInt64?

    public init(id: Int32, host: String, bootID: String, pidNamespace: String, leaderStart: UInt64? = nil) {
        self.id = id
        self.host = host
        self.bootID = bootID
        self.pidNamespace = pidNamespace
        self.leaderStart = leaderStart
    }

    /// Group `id` as this process sees it: this host, boot and pid namespace.
    public static func here(_ id: Int32) -> StepProcessGroup {
        StepProcessGroup(
            id: id, host: ProcessIdentity.host, bootID: ProcessIdentity.bootID, pidNamespace: ProcessIdentity.pidNamespace,
            leaderStart: ProcessGroupScan.startTime(of: id))
    }

    /// True when the group was recorded in this boot and pid namespace: only then can this process
    /// see whether it is alive. The boot id (random at every boot) tells the machine, whatever its
    /// host name says now: a group recorded under a name the host has since changed is still seen
    /// alive and waited for. Two machines share a boot id only when restored from one snapshot; the
    /// group's leader start time (`leaderStart`) must match too, and a wrong match only makes a run
    /// wait, never run a step twice.
    public var isHere: Bool {
        guard bootID == ProcessIdentity.bootID, pidNamespace == ProcessIdentity.pidNamespace else { return false }
        // Without a boot id (no /proc/sys/kernel/random/boot_id) two machines' initial pid
        // namespaces look alike: the host name is all that tells them apart.
        return bootID != "unknown" || host == ProcessIdentity.host
    }

    /// The pids of the group's processes that are still alive, when it is here (`isHere`); empty
    /// when none is left, and when this process cannot tell (another machine, boot or namespace).
    public func livePids() -> [Int32] {
        isHere ? ProcessGroupScan.members(of: id, leaderStart: leaderStart) : []
    }

    enum CodingKeys: String, CodingKey {
        case id, host
        case bootID = "boot_id"
        case pidNamespace = "pid_namespace"
        case leaderStart = "leader_start"
    }
}
