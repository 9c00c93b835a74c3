// libFuzzer target: raw bytes → `Manifest.parse`, the entry point `milepost validate` uses.
// Built by `fuzz/run.sh` with `swiftc -sanitize=fuzzer,address -parse-as-library`; not part of the package.
import Milepost

/// One fuzz input. The buffer is `size` bytes and not NUL-terminated: it is copied as bytes,
/// never read as a C string. Each diagnostic's line is quoted as the renderer would quote it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzManifest(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    let source = ManifestSource(path: "fuzz.yaml", bytes: bytes)
    do {
        _ = try Manifest.parse(source, registry: .standard)
    } catch {
        // Oracles: parse never reads files, and a refused manifest always says why.
        guard case .invalid(let diagnostics, _) = error else { fatalError("parse read a file: \(error)") }
        guard diagnostics.contains(where: { $0.severity == .error }) else { fatalError("refused without an error") }
        for diagnostic in diagnostics {
            if let line = diagnostic.location?.line { _ = source.line(line) }
        }
    }
    return 0
}
