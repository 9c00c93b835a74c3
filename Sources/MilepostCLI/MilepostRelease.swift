/// The release this command line belongs to: what `milepost --version` and `status --format json` report.
public enum MilepostRelease {
    /// The package version.
    public static let version = "0.2.0"
    /// The git commit the binary was built from, when it was built from a git checkout.
    public static let commit: String? = BuildInfo.commit
    /// `0.2.0 (commit 1a2b3c4d5e6f)`, or `0.2.0` without a known commit.
    public static var description: String { commit.map { "\(version) (commit \($0))" } ?? version }
}
