import Foundation
import MilepostSystem
import SystemPackage
import Testing

/// The framing and addressing of `sd_notify` messages; `ServiceManagerNotifyTests` (CLI) receives them
/// from a real run.
@Suite struct ServiceManagerNotifierTests {
    /// One `NAME=value` line per assignment, each ending in a newline; a newline or other control
    /// character in a value becomes a space, so a value cannot add an assignment.
    @Test func aMessageIsNewlineTerminatedAssignments() {
        let message = ServiceManagerNotifier.message([
            ("EXTEND_TIMEOUT_USEC", "30000000"), ("STATUS", "running 1/a\nREADY=1\tnow"),
        ])
        #expect(String(decoding: message, as: UTF8.self) == "EXTEND_TIMEOUT_USEC=30000000\nSTATUS=running 1/a READY=1 now\n")
    }

    /// A message never exceeds what systemd reads: the assignments that do not fit are left off whole.
    @Test func aMessageStaysWithinSystemdsBuffer() {
        let long = String(repeating: "x", count: ServiceManagerNotifier.maximumMessageBytes)
        let message = ServiceManagerNotifier.message([("EXTEND_TIMEOUT_USEC", "1"), ("STATUS", long)])
        #expect(String(decoding: message, as: UTF8.self) == "EXTEND_TIMEOUT_USEC=1\n")
    }

    @Test(arguments: ["relative/notify.sock", "vsock:2:1234", "@", "notify"])
    func anAddressThatIsNeitherAPathNorAnAbstractNameIsRefused(_ address: String) {
        #expect(throws: ServiceManagerNotifier.Failure.unsupportedAddress(address)) { try ServiceManagerNotifier(address: address) }
    }

    @Test func anAddressLongerThanSockaddrUnIsRefused() {
        let address = "/" + String(repeating: "a", count: 107)
        #expect(throws: ServiceManagerNotifier.Failure.addressTooLong(address)) { try ServiceManagerNotifier(address: address) }
        #expect((try? ServiceManagerNotifier(address: "/" + String(repeating: "a", count: 106))) != nil)
        #expect((try? ServiceManagerNotifier(address: "@" + String(repeating: "a", count: 107))) != nil)
    }

    /// Nobody bound at the path: the send fails with the call and its errno, nothing is raised.
    @Test func sendingToNobodyThrowsTheErrno() throws {
        let notifier = try ServiceManagerNotifier(address: "/nonexistent-\(UUID().uuidString)/notify.sock")
        #expect(throws: ServiceManagerNotifier.Failure.call("sendto", .noSuchFileOrDirectory)) {
            try notifier.send([("STATUS", "x")])
        }
    }
}
