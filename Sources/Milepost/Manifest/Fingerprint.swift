import MilepostYAML

/// A short stable digest (FNV-1a, 64 bits, hex) of a step's manifest entry, declared revision and
/// definition files' contents. Not cryptographic: it only tells whether an entry changed after it ran.
enum Fingerprint {
    /// The digest of a step; its text (`FNV1a.hex`) is the fingerprint. The entry's `with:` counts
    /// by its canonical text (`YAMLNode.appendCanonicalText`), empty without one. A step without
    /// definition files keeps the fingerprint it had before they were counted. So does a fleet
    /// step: the scope counts when it is `host`, so that moving a step between the fleet's store
    /// and the hosts' shows in the lock file and as drift.
    static func of(name: String, with: YAMLNode?, revision: String?, files: [DefinitionFile], scope: StepScope) -> FNV1a {
        var parameters: [UInt8] = []
        with?.appendCanonicalText(to: &parameters)
        var hash = FNV1a()
        hash.add(name.utf8)
        hash.add(CollectionOfOne(0))
        parameters.withUnsafeBufferPointer { hash.add($0) }
        hash.add(CollectionOfOne(0))
        hash.add((revision ?? "").utf8)
        for file in files {
            hash.add(CollectionOfOne(0))
            hash.addField(Array(file.name.utf8))
            hash.addField(Array((file.digest ?? "unreadable").utf8))
        }
        if scope == .host {
            hash.add(CollectionOfOne(0))
            hash.addField(Array("scope: host".utf8))
        }
        return hash
    }
}

/// FNV-1a, 64 bits: the one hash of fingerprints and manifest digests. Stable across processes and
/// versions (unlike `hashValue`), one multiply a byte; not cryptographic.
struct FNV1a {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func add(_ bytes: some Sequence<UInt8>) {
        for byte in bytes { value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
    }

    /// `bytes` in a buffer: the loop the digest of a manifest's bytes runs on every start.
    mutating func add(_ bytes: UnsafeBufferPointer<UInt8>) {
        var hash = value
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        value = hash
    }

    /// A field of a digest: its length, then its bytes, so that fields cannot run into each other.
    mutating func addField(_ bytes: [UInt8]) {
        add(String(bytes.count).utf8)
        add(CollectionOfOne(0))
        bytes.withUnsafeBufferPointer { add($0) }
    }

    /// Sixteen lowercase hex digits.
    var hex: String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: 16 - text.count) + text
    }
}
