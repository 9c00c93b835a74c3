import Glibc
import SystemPackage

/// Checks, before the Swift concurrency runtime starts, that the system grants the threads a run
/// needs. Every task runs on Dispatch's worker threads, and Dispatch retries a refused thread once
/// a second for ever, without a word, while a signal's default action is the only way out: under a
/// thread or process limit (`RLIMIT_NPROC`, a cgroup's `pids.max`, systemd's `TasksMax=`) or an
/// address-space limit (`RLIMIT_AS`) too low for them, the process would hang before reading
/// anything. Checked first, such a limit is an error at once instead.
package enum ThreadHeadroom {
    /// The threads a run has at once besides the main one, with room to spare: Dispatch's workers
    /// and its event thread (4 seen in a run) and our `SystemThread`s (the signal relay, up to three
    /// output readers and the reaper of a step's child).
    package static let threads = 15

    /// Starts `count` threads that all exist at once, with the default stack (as Dispatch's
    /// workers have), then ends and joins them.
    /// - throws: `SystemThread.Refused` for the first thread the system refuses.
    package static func check(_ count: Int = threads) throws(SystemThread.Refused) {
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
        for _ in 0..<count {
            var thread = pthread_t()
            // Each thread waits for the gate, held until all exist, so that they count together.
            let result = pthread_create(&thread, nil, { argument in
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
