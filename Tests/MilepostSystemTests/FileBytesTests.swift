import Foundation
import MilepostSystem
import SystemPackage
import Testing

/// `FileDescriptor.writeBytes` and `readToEnd(expected:limit:)` on real files: every byte comes
/// back whatever size `fstat` promised, and a limit stops the read one byte past it.
@Suite struct FileBytesTests {
    private func withFile(_ body: (FileDescriptor) throws -> Void) throws {
        let path = NSTemporaryDirectory() + "milepost-filebytes-\(UUID().uuidString)"
        let descriptor = try FileDescriptor.open(path, .readWrite, options: [.create, .exclusiveCreate], permissions: .ownerReadWrite)
        defer {
            try? descriptor.close()
            try? FileManager.default.removeItem(atPath: path)
        }
        try body(descriptor)
    }

    private static func pattern(_ count: Int) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) } }

    @Test(arguments: [0, 1, 4095, 4097, 65_537, 300_000])
    func everyByteComesBackWhateverSizeWasExpected(size: Int) throws {
        try withFile { descriptor in
            let bytes = Self.pattern(size)
            try bytes.withUnsafeBytes { try descriptor.writeBytes($0) }
            // The size fstat gives, a file that grew since (expected too small), one that shrank.
            for expected in [size, 0, size / 2, size + 100] {
                _ = try descriptor.seek(offset: 0, from: .start)
                #expect(try descriptor.readToEnd(expected: expected) == bytes, "expected \(expected)")
            }
        }
    }

    @Test func aLimitStopsTheReadOneBytePastIt() throws {
        try withFile { descriptor in
            try Self.pattern(100_000).withUnsafeBytes { try descriptor.writeBytes($0) }
            for (expected, limit) in [(10, 10), (0, 10), (100_000, 5_000), (0, 70_000)] {
                _ = try descriptor.seek(offset: 0, from: .start)
                #expect(try descriptor.readToEnd(expected: expected, limit: limit) == Array(Self.pattern(100_000)[...limit]))
            }
            _ = try descriptor.seek(offset: 0, from: .start)
            #expect(try descriptor.readToEnd(expected: 100_000, limit: 100_000).count == 100_000)
        }
    }

    /// A pipe gives what was written so far at each read, and nothing is expected of its size.
    @Test func aPipeIsReadToItsEnd() throws {
        let (readEnd, writeEnd) = try FileDescriptor.pipe()
        defer { try? readEnd.close() }
        let bytes = Self.pattern(10_000)
        let writer = Thread {
            for start in stride(from: 0, to: bytes.count, by: 1_000) {
                try? bytes[start..<start + 1_000].withUnsafeBytes { try writeEnd.writeBytes($0) }
                usleep(1_000)
            }
            try? writeEnd.close()
        }
        writer.start()
        #expect(try readEnd.readToEnd(expected: 0) == bytes)
    }

    @Test func writesAtAnOffsetLeaveTheRestAlone() throws {
        try withFile { descriptor in
            try Array(repeating: UInt8(ascii: "a"), count: 10).withUnsafeBytes { try descriptor.writeBytes($0) }
            try Array("XYZ".utf8).withUnsafeBytes { try descriptor.writeBytes($0, at: 4) }
            _ = try descriptor.seek(offset: 0, from: .start)
            #expect(String(decoding: try descriptor.readToEnd(expected: 10), as: UTF8.self) == "aaaaXYZaaa")
        }
    }
}
