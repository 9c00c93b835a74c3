/// The one spelling of a path: absolute, every symbolic link followed and every `.` and `..`
/// resolved, as `realpath(3)` gives it. Two spellings of one file (`x.db`, `./x.db`, `/abs/x.db`,
/// a link to it) give the same text, so what keys on it (a store's lock file, "is this the same
/// store?") sees one file.
///
/// A path that does not exist yet (a store created on its first write) is canonical as where it
/// would be created: the canonical form of the longest part that exists, followed by the rest as
/// written; a dangling symbolic link is followed to where it points, as `open(O_CREAT)` would.
/// A hard link is a file of its own here: nothing in a path tells two hard links apart.
package enum CanonicalPath {
    /// The canonical text of `path` (a path's text, `PathText`).
    package static func of(_ path: String) -> String {
        resolve(path, links: 0)
    }

    /// How many dangling links are followed before giving up (`realpath` itself allows 40, `ELOOP`).
    private static let linkLimit = 40

    private static func resolve(_ path: String, links: Int) -> String {
        if let resolved = try? FileCalls.resolvingLinks(path) { return resolved }
        let (parent, name) = split(path)
        guard let name else { return parent }
        if links < linkLimit, let target = FileCalls.linkTarget(path) {
            return resolve(target.hasPrefix("/") ? target : parent + "/" + target, links: links + 1)
        }
        let directory = resolve(parent, links: links)
        switch name {
        case ".": return directory
        case "..": return split(directory).parent
        default: return directory == "/" ? "/" + name : directory + "/" + name
        }
    }

    /// `path` as its directory and its last component (nil for `/`); trailing slashes ignored, a
    /// relative name's directory is `.`.
    private static func split(_ path: String) -> (parent: String, name: String?) {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
        if trimmed == "/" || trimmed.isEmpty { return (trimmed.isEmpty ? "." : "/", nil) }
        guard let slash = trimmed.lastIndex(of: "/") else { return (".", String(trimmed)) }
        let parent = trimmed[..<slash]
        return (parent.isEmpty ? "/" : String(parent), String(trimmed[trimmed.index(after: slash)...]))
    }
}
