import MilepostSystem
import Testing

@Suite struct UTF8ByteSearchTests {
    @Test(arguments: ["", "a", "short $x", "déjà vu", String(repeating: "long text without it ", count: 8)])
    func findsWhatUTF8ContainsFinds(text: String) {
        for byte: UInt8 in [0, UInt8(ascii: "$"), UInt8(ascii: "="), 0xC3, 0xA9] {
            #expect(text.containsUTF8(byte) == text.utf8.contains(byte))
        }
        #expect(("x" + text + "\0").containsUTF8(0))
        #expect((text + "=").containsUTF8(UInt8(ascii: "=")))
    }
}
