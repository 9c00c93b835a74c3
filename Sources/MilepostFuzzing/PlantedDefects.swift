#if canImport(Glibc)
import Glibc
#endif

/// The defects `fuzz/run.sh` plants before fuzzing, each behind an input libFuzzer must find (one
/// starting with `bug`): unless it reports all three, a real defect of the same kind would pass.
extension FuzzTarget {
    /// Reads one byte past a heap buffer, as a slip in pointer code would: AddressSanitizer's report.
    static let plantedCrash = FuzzTarget(name: "planted-crash", summary: "reads past a buffer on inputs starting with 'bug'") { bytes in
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
        defer { buffer.deallocate() }
        _ = buffer.initialize(from: bytes)
        if startsWithBug(bytes) { use(buffer.baseAddress![bytes.count]) }
    }

    /// Never returns on inputs starting with `bug`: libFuzzer's timeout.
    static let plantedHang = FuzzTarget(name: "planted-hang", summary: "never returns on inputs starting with 'bug'") { bytes in
        while startsWithBug(bytes) { usleep(1000) }
    }

    /// Leaves a retain cycle behind on inputs starting with `bug`: LeakSanitizer's report.
    static let plantedLeak = FuzzTarget(name: "planted-leak", summary: "leaks a retain cycle on inputs starting with 'bug'") { bytes in
        guard startsWithBug(bytes) else { return }
        let node = Node()
        node.next = node
        keep(node)
    }

    /// Compared byte by byte in this module, so that libFuzzer's coverage of each comparison leads it there.
    private static func startsWithBug(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 3 && bytes[0] == UInt8(ascii: "b") && bytes[1] == UInt8(ascii: "u") && bytes[2] == UInt8(ascii: "g")
    }

    /// Keep the optimizer from dropping the read and the cycle.
    @_optimize(none)
    private static func use(_ byte: UInt8) {}

    @_optimize(none)
    private static func keep(_ node: Node) {}

    private final class Node {
        var next: Node?
    }
}
