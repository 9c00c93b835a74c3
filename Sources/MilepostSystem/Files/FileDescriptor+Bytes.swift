import SystemPackage

/// Whole-buffer reads and writes without SystemPackage's generic helpers and without a zeroed
/// scratch buffer: the calls every start makes (docs/performance.md, "No-op pre-start").
extension FileDescriptor {
    /// Writes all of `bytes` with `write(2)`, or with `pwrite(2)` at `offset` when given, looping on
    /// short writes and `EINTR`.
    ///
    /// SystemPackage's `writeAll` does the same for any `Sequence`, but it is generic and not
    /// inlinable: called from here it runs unspecialized and instantiates `Result<Int, Errno>` at
    /// run time, whose `Error` requirement is checked by scanning every conformance record of the
    /// static binary (≈ 0.2 M instructions the first time, a tenth of the no-op pre-start run's
    /// cost; docs/performance.md). This one takes the bytes as they are and needs no metadata.
    /// - throws: `Errno`, as SystemPackage's calls do.
    package func writeBytes(_ bytes: UnsafeRawBufferPointer, at offset: Int64? = nil) throws {
        var written = 0
        while written < bytes.count {
            let rest = UnsafeRawBufferPointer(rebasing: bytes[written...])
            if let offset {
                written += try write(toAbsoluteOffset: offset + Int64(written), rest, retryOnInterrupt: true)
            } else {
                written += try write(rest, retryOnInterrupt: true)
            }
        }
    }

    /// Reads with `read(2)` from the current offset to the end of the file, or until more than
    /// `limit` bytes are read (the result then holds `limit + 1` or more, which tells the caller).
    /// `expected`, the size `fstat` gave, is read into the result's own storage in one call, with
    /// one byte more to see a file that grew since; reading on, the storage doubles, never reading
    /// more than one byte past `limit`.
    ///
    /// A zeroed 64 KiB chunk copied into the result cost each read of a small file 16 page faults
    /// and a 64 KiB `memset` (docs/performance.md, "No-op pre-start").
    /// - throws: `Errno`, as SystemPackage's calls do.
    package func readToEnd(expected: Int, limit: Int = .max) throws -> [UInt8] {
        var bytes: [UInt8] = []
        // Nothing expected (a FIFO, a file in /proc): a page first, not one byte.
        var capacity = (expected > 0 ? min(expected, limit) : min(4096, limit)) + 1
        while true {
            var atEnd = false
            let more = try [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
                while count < capacity {
                    let got = try read(into: UnsafeMutableRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(buffer)[count...]))
                    if got == 0 {
                        atEnd = true
                        return
                    }
                    count += got
                }
            }
            if bytes.isEmpty { bytes = more } else { bytes += more }
            if atEnd || bytes.count > limit { return bytes }
            capacity = min(max(bytes.count, 4096), limit - bytes.count) + 1
        }
    }
}
