import MilepostTestSupport
import Testing

/// Runs each test on threads of its own (`ThreadTaskExecutor`), for a test that acts on a child
/// while it runs: kills it mid-step, signals it, reads the server while it holds a lock.
///
/// The CLI suites wait for their children synchronously, each holding one of the shared pool's
/// threads (two on two cores) while its child runs. A test that `await`s resumes behind every test
/// still queued to start: in CI that took five minutes, and the child it meant to act on had ended
/// by itself first (a step's `sleep 300`, a `wait --timeout 5m`, a 240 s polling deadline). On a
/// thread of its own the test still starts in its turn, but never waits for the pool after that.
struct OnItsOwnThread: TestTrait, SuiteTrait, TestScoping {
    var isRecursive: Bool { true }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let executor = ThreadTaskExecutor()
        defer { executor.stop() }
        try await withTaskExecutorPreference(executor) {
            try await function()
        }
    }
}

extension Trait where Self == OnItsOwnThread {
    /// Each test runs on a thread of its own: see `OnItsOwnThread`.
    static var onItsOwnThread: Self { Self() }
}
