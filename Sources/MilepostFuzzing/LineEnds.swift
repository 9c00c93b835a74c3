/// `bytes` with a CR before each LF that has none: the file as an editor or git's `autocrlf` on
/// Windows leaves it, which a line-based reader must read as the original.
func crlfLineEnds(_ bytes: [UInt8]) -> [UInt8] {
    var result: [UInt8] = []
    result.reserveCapacity(bytes.count + bytes.count / 8)
    for (index, byte) in bytes.enumerated() {
        if byte == UInt8(ascii: "\n"), index == 0 || bytes[index - 1] != UInt8(ascii: "\r") { result.append(UInt8(ascii: "\r")) }
        result.append(byte)
    }
    return result
}
