import Glibc

/// This process's environment, read one way: every name and value is a text of its bytes
/// (`PathText`), so a byte that is not UTF-8 is kept exactly and is the same byte again in the
/// environment of an `exec` step (`Spawn`). (`ProcessInfo` replaces it with U+FFFD.) Read at each
/// call, never cached.
package enum ProcessEnvironment {
    /// The variable `name`, from `getenv(3)`; nil when it is not set.
    package static func value(_ name: String) -> String? {
        getenv(name).map { PathText.string(cString: $0) }
    }

    /// Every variable, by name, from `environ`. An entry without `=` is skipped; of a name set
    /// twice, the first is kept, as `getenv` finds it.
    package static func all() -> [String: String] {
        var variables: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = PathText.string(cString: pointer)
            if let equals = text.firstIndex(of: "="), variables[String(text[..<equals])] == nil {
                variables[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            entry += 1
        }
        return variables
    }
}
