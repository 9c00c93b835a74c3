import MilepostSystem
import Synchronization
import Testing

/// A per-type memo works each type out once and keeps the answers of different types apart.
@Suite struct PerTypeMemoTests {
    @Test func eachTypeIsWorkedOutOnce() {
        let calls = Mutex(0)
        let memo = PerTypeMemo<Bool> { type in
            calls.withLock { $0 += 1 }
            return type is any BinaryInteger.Type
        }
        for _ in 0..<3 {
            #expect(memo(Int.self))
            #expect(!memo(String.self))
            #expect(memo(UInt8.self))
        }
        #expect(calls.withLock { $0 } == 3)
    }
}
