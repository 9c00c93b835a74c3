import Glibc
import SystemPackage

/// Checks, before the Swift concurrency runtime starts, that the system grants the threads a run
/// needs. Every task runs on Dispatch's worker threads, and Dispatch retries a refused thread once
/// a second for ever, without a word, while a signal's default action is the only way out: under a
/// thread or process limit (`RLIMIT_NPROC`, a cgroup's `pids.max`, systemd's `TasksMax=`) or an
/// address-space limit (`RLIMIT_AS`) too low for them, the process would hang before reading
/// anything. Checked first, such a limit is an error at once instead.
package enum ThreadHeadroom {
    /// Dispatch's workers and event thread, with the default stack: 4 were seen in a run, so twice that and more.
    static let runtimeThreads = 10
    /// Our `SystemThread`s at once: the signal relay, up to three output readers and a step child's reaper.
    static let ownThreads = 5
    /// The threads a run has at once besides the main one.
    package static let threads = runtimeThreads + ownThreads

    /// Starts `threads` threads that all exist at once, each with the stack its kind gets, then
    /// ends and joins them.
    /// - throws: `SystemThread.Refused` for the first thread the system refuses.
    package static func check() throws(SystemThread.Refused) {
        let gate = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        pthread_mutex_init(gate, nil)
        pthread_mutex_lock(gate)
        var started: [pthread_t] = []
        defer {
            pthread_mutex_unlock(gate)
            for thread in started { pthread_join(thread, nil) }
            pthread_mutex_destroy(gate)
            gate.deallocate()
        }
        let stacks = Array(repeating: nil, count: runtimeThreads) + Array(repeating: SystemThread.stackBytes, count: ownThreads)
        for stack in stacks {
            var attributes = pthread_attr_t()
            pthread_attr_init(&attributes)
            defer { pthread_attr_destroy(&attributes) }
            if let stack { pthread_attr_setstacksize(&attributes, stack) }
            var thread = pthread_t()
            // Each thread waits for the gate, held until all exist, so that they count together.
            let result = pthread_create(&thread, &attributes, { argument in
                let gate = argument!.assumingMemoryBound(to: pthread_mutex_t.self)
                pthread_mutex_lock(gate)
                pthread_mutex_unlock(gate)
                return nil
            }, gate)
            guard result == 0 else { throw SystemThread.Refused(errno: Errno(rawValue: result)) }
            started.append(thread)
        }
    }
}
