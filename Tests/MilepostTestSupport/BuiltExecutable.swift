import Foundation

/// Where the tests find an executable of this package: the path in `variable` when it is set (CI
/// points `MILEPOST_BINARY` at the static release binary, the one users install), else the debug
/// build beside the test bundle.
package enum BuiltExecutable {
    /// The path of `name`, from `variable` or beside the running test bundle.
    package static func path(_ name: String, overriddenBy variable: String) -> String {
        if let path = ProcessInfo.processInfo.environment[variable], !path.isEmpty { return path }
        let bundle = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: bundle).deletingLastPathComponent().appendingPathComponent(name).path
    }

    /// The `milepost` executable under test (`MILEPOST_BINARY` or the debug build).
    package static let milepost = path("milepost", overriddenBy: "MILEPOST_BINARY")
}
