import MilepostSystem
import MilepostYAML

/// `milepost.lock`: each step's id and fingerprint (its manifest entry and its registered revision),
/// one line per step in run order, so that a pull request that edits or removes a released step
/// shows in the lock file's diff and fails `milepost validate --locked`.
///
/// ```
/// # milepost.lock: written by `milepost lock`; checked by `milepost validate --locked`.
/// 2.1/remove-empty-dailys 9f1c0e7a2b4d6f80
/// ```
///
/// Like Atlas's `atlas.sum`, it pins what was released; unlike it, adding a step at the end is not
/// a failure (a warning: lock it), since adding steps is what releases do.
public struct ManifestLock: Sendable, Equatable {
    /// One locked step: its id, its fingerprint, and the lock file line it is on.
    public struct Entry: Sendable, Equatable {
        public let id: String
        public let fingerprint: String
        public let line: Int
    }

    public let entries: [Entry]

    /// The first line of every lock file.
    static let header = "# milepost.lock: written by `milepost lock`; checked by `milepost validate --locked`. One step a line: ID FINGERPRINT."

    /// The lock file of `manifest`: the header, then `ID FINGERPRINT` for each step in run order.
    public static func text(of manifest: Manifest) -> String {
        ([header] + manifest.steps.map { "\($0.id) \($0.fingerprint)" }).joined(separator: "\n") + "\n"
    }

    /// Reads a lock file's text; a line that is neither a comment, blank, nor `ID FINGERPRINT` is
    /// an error located at `file`'s line.
    public static func parse(_ text: String, file: String) -> (lock: ManifestLock, errors: [Diagnostic]) {
        var entries: [Entry] = []
        var errors: [Diagnostic] = []
        var seen: [String: Int] = [:]
        for (index, line) in text.textLines.enumerated() {
            let number = index + 1
            let trimmed = line.trimmingPrefix(while: \.isWhitespace)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            let fields = trimmed.split(whereSeparator: \.isWhitespace).map(String.init)
            guard fields.count == 2, fields[1].count == 16, fields[1].allSatisfy(\.isHexDigit) else {
                errors.append(Diagnostic(
                    .error, "a lock file line is ID FINGERPRINT (16 hex digits); run `milepost lock` to write it again",
                    file: file, at: SourceLocation(line: number, column: 1)))
                continue
            }
            if let first = seen[fields[0]] {
                errors.append(Diagnostic(
                    .error, "\(fields[0]) is locked twice (first on line \(first))", file: file, at: SourceLocation(line: number, column: 1)))
                continue
            }
            seen[fields[0]] = number
            entries.append(Entry(id: fields[0], fingerprint: fields[1], line: number))
        }
        return (ManifestLock(entries: entries), errors)
    }

    /// What `validate --locked` reports for `manifest` against this lock (read from `file`):
    /// an error for each locked step that changed (at the manifest entry) or that the manifest no
    /// longer has (at the lock line), a warning for each step the lock does not have yet. A step that
    /// `replaces:` a locked id is compared with that entry (a rename, a warning: lock it).
    public func check(_ manifest: Manifest, file: String) -> [Diagnostic] {
        let locked = Dictionary(entries.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let path = manifest.source.path
        var findings: [Diagnostic] = []
        var matched: Set<String> = []
        for step in manifest.steps {
            let renamed = locked[step.id] == nil ? step.replaces.flatMap { locked[$0] } : nil
            guard let entry = locked[step.id] ?? renamed else {
                findings.append(Diagnostic(
                    .warning, "\(step.id) is not in \(file) yet (an added step)", file: path, at: step.location,
                    notes: [.init("run `milepost lock` and commit \(file) with it")]))
                continue
            }
            matched.insert(entry.id)
            if entry.fingerprint != step.fingerprint {
                findings.append(Diagnostic(
                    .error, "\(step.id) changed since \(file) was written: its entry or its step's revision is not what was locked",
                    file: path, at: step.location,
                    notes: [.init("\(file):\(entry.line) locks \(entry.fingerprint), the manifest now gives \(step.fingerprint)"),
                            .init("a released step must not change (stores that ran it will not run it again): add a new step instead; if the change is intended, run `milepost lock`")]))
            } else if renamed != nil {
                findings.append(Diagnostic(
                    .warning, "\(step.id) renames the locked \(entry.id) (replaces:)", file: path, at: step.location,
                    notes: [.init("run `milepost lock` and commit \(file) with it")]))
            }
        }
        for entry in entries where !matched.contains(entry.id) {
            findings.append(Diagnostic(
                .error, "\(entry.id) is locked but no longer in \(path) (a removed step)", file: file,
                at: SourceLocation(line: entry.line, column: 1),
                notes: [.init("stores that ran it keep its record (an orphan); if it was renamed, give the new step 'replaces: \(entry.id)'; if the removal is intended, run `milepost lock`")]))
        }
        return findings
    }
}
