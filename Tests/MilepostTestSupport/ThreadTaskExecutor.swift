import Foundation

/// A task executor with threads of its own: a task that prefers it (`withTaskExecutorPreference`)
/// resumes on them after each `await`, whatever the shared pool is busy with. A job that finds
/// every thread busy (blocked in a wait, say) gets a new thread, so that one child task of the test
/// that blocks never holds up another. (A `Task {}` the code under test starts runs on the shared
/// pool, as ever.) The threads end once `stop()` was called and no job is left.
package final class ThreadTaskExecutor: TaskExecutor, @unchecked Sendable {
    // Guarded by `condition`.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var idleThreads = 0
    private var stopped = false

    package init() {}

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        if jobs.count > idleThreads {
            Thread { self.work() }.start()
        } else {
            condition.signal()
        }
        condition.unlock()
    }

    /// Lets the threads end once the jobs they have are done.
    package func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    private func work() {
        while true {
            condition.lock()
            while jobs.isEmpty, !stopped {
                idleThreads += 1
                condition.wait()
                idleThreads -= 1
            }
            guard !jobs.isEmpty else {
                condition.unlock()
                return
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
