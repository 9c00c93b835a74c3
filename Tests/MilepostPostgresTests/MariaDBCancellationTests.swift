import Milepost
import Testing
@testable import MilepostMariaDB

/// A statement killed because its task was cancelled while it ran (what the runner does when the lock is lost)
/// is reported as cancelled on request, so the runner names the lost lock instead of the kill.
@Suite(.enabled(if: MariaDBTestServer.isConfigured, MariaDBTestServer.missing))
struct MariaDBCancellationTests {
    @Test func aStatementCancelledWithItsTaskIsReportedAsCancelledOnRequest() async throws {
        let connection = try await MariaDBConnection.open(MariaDBSettings(url: try #require(MariaDBTestServer.url)))
        let statement = Task { () async -> MariaDBFailure? in
            do throws(MariaDBFailure) {
                try await connection.run("SELECT SLEEP(30)")
                return nil
            } catch {
                return error
            }
        }
        try await Task.sleep(for: .milliseconds(300))
        statement.cancel()
        let failure = await statement.value
        #expect(failure?.code == MariaDBFailure.interrupted, "\(failure.map(String.init(describing:)) ?? "")")
        #expect(failure?.storeError("mysql://test").isQueryCanceled == true)
    }

    /// The locked store's bookkeeping (`StatementCancellation.shielding`) — the runner recording a
    /// step's interruption and the run's end on SIGTERM, releasing the lock — runs to its end in a
    /// cancelled task: killing it left the run throwing "Query execution was interrupted" (error
    /// 1317) instead of reporting `.interrupted`, one time in three
    /// (`RunnerTests.cancellationInterruptsTheCurrentStepAndStartsNoOther`).
    @Test func bookkeepingInACancelledTaskRunsToItsEnd() async throws {
        let connection = try await MariaDBConnection.open(MariaDBSettings(url: try #require(MariaDBTestServer.url)))
        let statement = Task { () async -> (any Error)? in
            while !Task.isCancelled { try? await Task.sleep(for: .milliseconds(5)) }
            do {
                _ = try await StatementCancellation.shielding { try await connection.run("SELECT SLEEP(1)") }
                return nil
            } catch {
                return error
            }
        }
        statement.cancel()
        let failure = await statement.value
        #expect(failure == nil, "\(failure.map(String.init(describing:)) ?? "")")
    }
}
