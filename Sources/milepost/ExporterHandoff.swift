import Glibc
import MilepostCLI
import MilepostSystem

/// Keeps the OpenTelemetry exporter out of the binary that answers the pre-start no-op.
///
/// Linking swift-otel (with SwiftNIO and BoringSSL) costs every start of a binary, used or not:
/// relocations and the runtime's conformance scan grow with what is linked (docs/performance.md,
/// "The OpenTelemetry exporter and the no-op run"). So `milepost` links no exporter, and when the
/// environment asks for OTLP export it `exec`s `milepost-otel` — the same command line with the
/// exporter — from its own directory, with the same arguments and environment.
enum ExporterHandoff {
    /// The exporting binary's name, beside this one.
    static let exporterName = "milepost-otel"

    /// Returns only when export is not asked for, or when `milepost-otel` cannot be started: then a
    /// warning says so and the command runs without export (a missing exporter never fails a run,
    /// as an unreachable collector does not).
    static func execIfRequested() {
        guard OTLPExportRequest.isPresent else { return }
        guard let directory = ownDirectory() else {
            warn("cannot read /proc/self/exe")
            return
        }
        let path = directory + Array("/\(exporterName)".utf8)
        // The arguments as this process read them (`PathText.arguments`), not `CommandLine.unsafeArgv`,
        // which is empty when a preloaded library kept them from the Swift runtime.
        let argv = ([path] + PathText.arguments().map(PathText.bytes)).map { strdup($0.map { CChar(bitPattern: $0) } + [0]) } + [nil]
        let error = argv.withUnsafeBufferPointer { arguments in
            _ = execv(arguments[0]!, arguments.baseAddress!)
            return errno
        }
        warn("cannot start \(PathText.readable(PathText.string(bytes: path))): \(String(cString: strerror(error)))")
    }

    /// The bytes of the directory of this process's executable, as the kernel names it (links resolved).
    private static func ownDirectory() -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX))
        let count = buffer.withUnsafeMutableBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { readlink("/proc/self/exe", $0.baseAddress!, $0.count) }
        }
        guard count > 0, count < buffer.count, let slash = buffer[..<count].lastIndex(of: UInt8(ascii: "/")) else { return nil }
        return Array(buffer[..<max(slash, 1)])
    }

    private static func warn(_ problem: String) {
        StandardStream.error.write("milepost: warning: the OTEL_* environment asks for OTLP export, but \(problem); running without export\n")
    }
}
