import Dispatch
import Glibc
import Synchronization
import Testing

@testable import MilepostSystem

/// Serialized: signal dispositions are process-wide, and an untrapped SIGTERM ends the test run.
@Suite(.serialized) struct SignalTrapTests {
    /// Collects the signals a trap delivers.
    private final class Received: Sendable {
        private let signals = Mutex<[Int32]>([])
        private let arrived = DispatchSemaphore(value: 0)

        func record(_ signal: Int32) {
            signals.withLock { $0.append(signal) }
            arrived.signal()
        }

        /// The signals received once `count` have arrived, or after 10 s.
        func await(_ count: Int) -> [Int32] {
            for _ in 0..<count { _ = arrived.wait(timeout: .now() + .seconds(10)) }
            return signals.withLock { $0 }
        }
    }

    /// Whether `signal` has its default action (SIG_DFL, a null handler).
    private static func hasDefaultAction(_ signal: Int32) -> Bool {
        var action = sigaction()
        sigaction(signal, nil, &action)
        return action.__sigaction_handler.sa_handler == nil
    }

    @Test func deliversSIGTERMToTheCallbackAndTheProcessLivesOn() throws {
        let received = Received()
        let trap = try SignalTrap(callback: received.record)
        defer { trap.uninstall() }
        kill(getpid(), SIGTERM)
        #expect(received.await(1) == [SIGTERM])
    }

    @Test func deliversEachSignalInOrder() throws {
        let received = Received()
        let trap = try SignalTrap(callback: received.record)
        defer { trap.uninstall() }
        kill(getpid(), SIGINT)
        #expect(received.await(1) == [SIGINT])
        kill(getpid(), SIGTERM)
        #expect(received.await(1) == [SIGINT, SIGTERM])
    }

    @Test func trapsOnlyTheGivenSignals() throws {
        let received = Received()
        let trap = try SignalTrap([SIGUSR1], callback: received.record)
        defer { trap.uninstall() }
        #expect(trap.signals == [SIGUSR1])
        #expect(Self.hasDefaultAction(SIGTERM))
        #expect(!Self.hasDefaultAction(SIGUSR1))
        kill(getpid(), SIGUSR1)
        #expect(received.await(1) == [SIGUSR1])
    }

    @Test func uninstallRestoresTheDefaultAndAllowsANewTrap() throws {
        let first = Received()
        let trap = try SignalTrap(callback: first.record)
        trap.uninstall()
        trap.uninstall()
        #expect(Self.hasDefaultAction(SIGINT))
        #expect(Self.hasDefaultAction(SIGTERM))

        let second = Received()
        let again = try SignalTrap(callback: second.record)
        defer { again.uninstall() }
        kill(getpid(), SIGTERM)
        #expect(second.await(1) == [SIGTERM])
        #expect(first.await(0) == [])
    }

    @Test func exitStatusIs128PlusTheSignal() {
        #expect(SignalTrap.exitStatus(for: SIGINT) == 130)
        #expect(SignalTrap.exitStatus(for: SIGTERM) == 143)
    }
}
