/// `%XX` escapes of store URLs (`postgres://`, `mysql://`) decoded, written here because
/// Foundation's `removingPercentEncoding` is not in FoundationEssentials, and linking Foundation
/// brings its 34 MB of ICU data into the binary (docs/performance.md).
package enum PercentDecoding {
    /// `text` with its `%XX` escapes decoded; nil when an escape is malformed or the bytes are not
    /// UTF-8 (as Foundation's `removingPercentEncoding`).
    package static func decoded(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var rest = text.utf8[...]
        func hexDigit() -> Int? { rest.popFirst().flatMap { Character(Unicode.Scalar($0)).hexDigitValue } }
        while let byte = rest.popFirst() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = hexDigit(), let low = hexDigit() else { return nil }
            bytes.append(UInt8(high * 16 + low))
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
