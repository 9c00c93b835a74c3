import Glibc

/// The text of a document's scalars. A scalar written verbatim in the source (most plain and quoted
/// ones) points into the source, which is kept anyway; only the others (unescaped, folded, block,
/// or in a UTF-16 source) are copied. Offsets from `source.count` on are in `copied`.
struct ScalarBytes: Sendable {
    let source: [UInt8]
    private(set) var copied: [UInt8] = []

    init(source: [UInt8]) {
        self.source = source
    }

    /// Records a scalar's `value`, pointing into the source when it is there at `offset`;
    /// returns its start. `source` is `self.source`'s buffer, which the caller holds.
    @inline(__always)
    mutating func append(_ value: UnsafeBufferPointer<UInt8>, at offset: Int?, in source: UnsafeBufferPointer<UInt8>) -> UInt32 {
        if let offset, offset >= 0, offset <= source.count - value.count,
            value.isEmpty || memcmp(source.baseAddress! + offset, value.baseAddress!, value.count) == 0
        {
            return UInt32(offset)
        }
        let start = UInt32(source.count + copied.count)
        copied.append(contentsOf: value)
        return start
    }

    /// Calls `body` with the `count` bytes at `start`.
    @inline(__always)
    func withBytes<R>(_ start: UInt32, _ count: UInt32, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        let start = Int(start)
        if start + Int(count) <= source.count {
            return try source.withUnsafeBufferPointer { try body(Self.slice($0, start, count)) }
        }
        return try copied.withUnsafeBufferPointer { try body(Self.slice($0, start - source.count, count)) }
    }

    /// Orders two scalar nodes by the bytes of their text.
    @inline(__always)
    func compare(_ a: RawNode, _ b: RawNode) -> Int {
        let limit = UInt64(source.count)
        if UInt64(a.start) + UInt64(a.count) <= limit, UInt64(b.start) + UInt64(b.count) <= limit {
            return source.withUnsafeBufferPointer { Self.compare(Self.slice($0, Int(a.start), a.count), Self.slice($0, Int(b.start), b.count)) }
        }
        return withBytes(a.start, a.count) { a in withBytes(b.start, b.count) { b in Self.compare(a, b) } }
    }

    /// Whether the texts of `a` and `b` are the same: `compare(a, b) == 0`, without reading the
    /// bytes of texts of different lengths.
    func equal(_ a: RawNode, _ b: RawNode) -> Bool {
        a.count == b.count && compare(a, b) == 0
    }

    @inline(__always)
    private static func slice(_ all: UnsafeBufferPointer<UInt8>, _ offset: Int, _ count: UInt32) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: all.baseAddress.map { $0 + offset }, count: Int(count))
    }

    @inline(__always)
    private static func compare(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
        for i in 0..<min(a.count, b.count) where a[i] != b[i] {
            return Int(a[i]) - Int(b[i])
        }
        return a.count - b.count
    }
}
