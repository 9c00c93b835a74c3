/// A short stable digest (FNV-1a, 64 bits, hex) of a step's manifest entry and declared revision.
/// Not cryptographic: it only tells whether an entry changed after it ran.
enum Fingerprint {
    static func of(name: String, parameters: String, revision: String?) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in [name, parameters, revision ?? ""].joined(separator: "\u{0}").utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
