import Foundation
import MilepostSystem
import Testing

@Suite struct ProcessEnvironmentTests {
    /// A variable that is not UTF-8 is read as its bytes' text, the same by name and in the whole
    /// environment, and gives back its bytes.
    @Test func aValueThatIsNotUTF8IsReadExactly() {
        let name = "MILEPOST_TEST_BYTES_\(UInt32.random(in: .min ... .max))"
        let bytes: [UInt8] = [UInt8(ascii: "a"), 0xFF, UInt8(ascii: "="), 0xC3]
        #expect((bytes.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer { setenv(name, $0.baseAddress!, 1) } == 0)
        defer { unsetenv(name) }
        let value = ProcessEnvironment.value(name)
        #expect(value == PathText.string(bytes: bytes))
        #expect(ProcessEnvironment.all()[name] == value)
        #expect(value.map(PathText.bytes) == bytes)
    }

    @Test func anUnsetVariableIsNil() {
        #expect(ProcessEnvironment.value("MILEPOST_TEST_NEVER_SET_\(UInt32.random(in: .min ... .max))") == nil)
    }
}
