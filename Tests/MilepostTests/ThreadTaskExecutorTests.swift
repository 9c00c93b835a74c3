import Dispatch
import Foundation
import MilepostTestSupport
import Testing

/// `ThreadTaskExecutor`, behind `.onItsOwnThread`: a task that prefers it goes on while every
/// thread of the shared pool is blocked.
struct ThreadTaskExecutorTests {
    @Test func aTaskThatPrefersItResumesWhileEveryPoolThreadIsBlocked() async {
        let executor = ThreadTaskExecutor()
        defer { executor.stop() }
        let release = DispatchSemaphore(value: 0)
        // Twice as many blocked tasks as the pool has threads: the ones that start hold every thread.
        let blockers = ProcessInfo.processInfo.activeProcessorCount * 2
        await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<blockers {
                group.addTask { release.wait(timeout: .now() + 60) == .success }
            }
            group.addTask(executorPreference: executor) {
                // Resumed after the pool is blocked: on the pool, this would wait out the blockers' minute.
                try? await Task.sleep(for: .milliseconds(100))
                for _ in 0..<blockers { release.signal() }
                return true
            }
            for await released in group {
                #expect(released, "a blocker waited a minute: the task that releases them waited for the pool")
            }
        }
    }
}
