import MilepostSystem
import SystemPackage
import Testing

@Suite struct PathTextTests {
    @Test(arguments: [
        Array("plain/name.yaml".utf8), [0x73, 0xFF], [0xC3], [0xE2, 0x82], [0xF4, 0x8F, 0xBE, 0x80], [0xED, 0xA0, 0x80],
        Array("déjà/vu".utf8) + [0x80, 0xC0, 0xAF, 0xFE], Array("\u{10FF80}\u{10FFFF}".utf8), [],
    ])
    func theBytesComeBackExactly(bytes: [UInt8]) {
        let text = PathText.string(bytes: bytes)
        #expect(PathText.bytes(text) == bytes)
        let path = PathText.filePath(text)
        #expect(PathText.string(path) == text)
    }

    @Test func validUTF8IsItsOwnText() {
        #expect(PathText.string(bytes: Array("déjà/vu.yaml".utf8)) == "déjà/vu.yaml")
        #expect(PathText.readable("déjà/vu.yaml") == "déjà/vu.yaml")
    }

    @Test func aBadByteIsOneScalarShownAsHex() {
        let text = PathText.string(bytes: [0x73, 0xFF])
        #expect(text.unicodeScalars.map(\.value) == [0x73, 0x10_FFFF])
        #expect(PathText.readable(text) == #"s\xFF"#)
        #expect(PathText.string(bytes: [0x73, 0xFE]) != text)
    }

    @Test func aLiteralScalarOfTheByteRangeIsKeptAsItsBytes() {
        let bytes = Array("\u{10FF80}".utf8)
        let text = PathText.string(bytes: bytes)
        #expect(text != "\u{10FF80}")
        #expect(PathText.bytes(text) == bytes)
    }
}
