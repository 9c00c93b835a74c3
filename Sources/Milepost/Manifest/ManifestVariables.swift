import MilepostSystem

/// The values `${NAME}` in a manifest's `with:` strings are replaced with (see
/// `VariableSubstitution` for the syntax): the process environment and, for names it does not set,
/// an env file — the environment wins, as in docker compose.
///
/// `Manifest.load(…, variables: nil)` only checks the syntax of every `${…}`; with variables, an
/// unset variable without a default is a located error and the manifest is not loaded.
public struct ManifestVariables: Sendable {
    /// The values, by name.
    public var values: [String: String]
    /// The env file the values were read from, if any: part of the manifest's digest (`ManifestDigest`).
    public internal(set) var envFile: ManifestSource?

    public init(_ values: [String: String]) {
        self.values = values
    }

    /// The largest env file read.
    static let maxEnvFileBytes = 1 << 20

    /// The process environment, with the values of the env file at `envFile` (dotenv syntax) under it.
    /// - throws: `ManifestError.unreadable` when the file cannot be read, `.invalid` with a located
    ///   error for each line that is not `NAME=value`, or, when this process runs as root, for a file
    ///   another user could have written (`RootOnlyPath`): its values would run as root.
    public static func environment(envFile: String? = nil) throws(ManifestError) -> ManifestVariables {
        var values = ProcessEnvironment.all()
        var source: ManifestSource?
        if let envFile {
            let read = try ManifestSource.read(path: envFile, maxBytes: maxEnvFileBytes)
            if RootOnlyPath.isRoot, let problem = RootOnlyPath.problem(envFile) {
                throw .invalid([Diagnostic(
                    .error, "refusing to read the env file as root: \(problem), so another user could have written the "
                        + "values that commands run as root get (ssh refuses such keys); make it root's alone: "
                        + "chown root and chmod go-w, the file and each directory above it",
                    file: envFile, at: nil)], source: read)
            }
            let file = EnvFile.parse(read)
            guard file.problems.isEmpty else { throw .invalid(file.problems, source: read) }
            values.merge(file.values) { environment, _ in environment }
            source = read
        }
        var variables = ManifestVariables(values)
        variables.envFile = source
        return variables
    }
}
