import MilepostSystem
import Synchronization
import Testing

/// A per-type memo works each type out once and keeps the answers of different types apart.
@Suite struct PerTypeMemoTests {
    @Test func eachTypeIsWorkedOutOnce() {
        let calls = Mutex(0)
        let memo = PerTypeMemo { type in
            calls.withLock { $0 += 1 }
            return type is any BinaryInteger.Type ? 1 : type is any StringProtocol.Type ? 2 : 0
        }
        for _ in 0..<3 {
            #expect(memo(Int.self) == 1)
            #expect(memo(String.self) == 2)
            #expect(memo(UInt8.self) == 1)
            #expect(memo(Double.self) == 0)
        }
        #expect(calls.withLock { $0 } == 4)
    }
}
