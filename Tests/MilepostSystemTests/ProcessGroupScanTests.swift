import Foundation
import Testing
@testable import MilepostSystem

/// The live members of a process group, and a group id recycled by a new leader.
@Suite struct ProcessGroupScanTests {
    /// A process that makes itself the leader of a group whose id is its pid (`setpgid(0, 0)`).
    static func startLeader() throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import os, time; os.setpgid(0, 0); time.sleep(30)"]
        try process.run()
        let deadline = ContinuousClock.now + .seconds(60)
        while ProcessGroupScan.members(of: process.processIdentifier).isEmpty, ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.01)
        }
        return process
    }

    @Test func aLeaderThatStartedWhenRecordedIsItsGroupsMember() throws {
        let leader = try Self.startLeader()
        defer { kill(leader.processIdentifier, SIGKILL); leader.waitUntilExit() }
        let pid = leader.processIdentifier
        let start = try #require(ProcessGroupScan.startTime(of: pid))
        // The leader is among them (tests running beside this one may spawn into the group too).
        #expect(ProcessGroupScan.members(of: pid).contains(pid))
        #expect(ProcessGroupScan.members(of: pid, leaderStart: start).contains(pid))
    }

    /// A live leader with the recorded id but another start time leads a new group: the recorded
    /// one is gone, whatever the new one holds.
    @Test func aGroupIdLedByAProcessThatStartedAtAnotherTimeWasRecycled() throws {
        let leader = try Self.startLeader()
        defer { kill(leader.processIdentifier, SIGKILL); leader.waitUntilExit() }
        let pid = leader.processIdentifier
        let start = try #require(ProcessGroupScan.startTime(of: pid))
        #expect(ProcessGroupScan.members(of: pid, leaderStart: start - 1) == [])
        #expect(ProcessGroupScan.members(of: pid, leaderStart: start + 1) == [])
    }

    /// The leader never forks, so once it is gone its group has no member. On a busy machine the
    /// freed id can be handed out again at once (a new process with that pid making itself a group
    /// leader, as every `exec` step does): members of such a recycled group started after the kill.
    @Test func aGoneProcessHasNoStartTimeAndItsGroupNoMembers() throws {
        let leader = try Self.startLeader()
        let pid = leader.processIdentifier
        let beforeKill = try #require(Self.ticksSinceBoot())
        kill(pid, SIGKILL)
        leader.waitUntilExit()
        let left = ProcessGroupScan.members(of: pid, leaderStart: 1)
        let recycled = left.allSatisfy { (ProcessGroupScan.startTime(of: $0) ?? .max) >= beforeKill }
        #expect(recycled, "members of the gone leader's group that started before it was killed: \(left)")
        // Its pid names no process, or a new one started after the kill.
        #expect((ProcessGroupScan.startTime(of: pid) ?? .max) >= beforeKill)
    }

    /// Now, in the clock ticks of `/proc/PID/stat`'s start times (`/proc/uptime` × `CLK_TCK`).
    static func ticksSinceBoot() -> UInt64? {
        guard let text = try? String(contentsOfFile: "/proc/uptime", encoding: .utf8),
              let seconds = text.split(separator: " ").first.flatMap({ Double($0) })
        else { return nil }
        return UInt64(seconds * Double(sysconf(Int32(_SC_CLK_TCK))))
    }
}
