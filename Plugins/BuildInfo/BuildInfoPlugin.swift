import Foundation
import PackagePlugin

/// Generates `BuildInfo.swift` for the target it is applied to: the git commit the package is
/// built from, or nil outside a git checkout (a source tarball). It runs before every build and
/// rewrites the file only when the commit changed, so an unchanged commit recompiles nothing.
///
/// SwiftPM has no way to hand a build-time string to the compiler without `unsafeFlags`, and a
/// prebuild command is the supported way to generate code from the environment.
@main
struct BuildInfoPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let output = context.pluginWorkDirectoryURL.appendingPathComponent("BuildInfo")
        let script = context.package.directoryURL.appendingPathComponent("scripts/build-info.sh")
        return [
            .prebuildCommand(
                displayName: "Recording the git commit of \(target.name)",
                executable: URL(fileURLWithPath: "/bin/sh"),
                arguments: [script.path, context.package.directoryURL.path, output.path],
                outputFilesDirectory: output)
        ]
    }
}
