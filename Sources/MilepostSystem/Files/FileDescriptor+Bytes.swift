import SystemPackage

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
}
