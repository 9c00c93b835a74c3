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

    /// The variable `name`, taken out of the environment (`unsetenv(3)`): for a variable meant for
    /// this process alone, which the processes it starts must not inherit. Call it before any
    /// other thread reads the environment.
    package static func take(_ name: String) -> String? {
        let taken = value(name)
        if taken != nil { unsetenv(name) }
        return taken
    }

    /// The names of the variables that start with `prefix` (ASCII), in `environ`'s order, each
    /// once. Compares bytes and makes a text only of a name that matches: cheap enough for the
    /// pre-start fast path, which makes no `Dictionary` of `String`s (docs/performance.md).
    package static func names(prefixed prefix: String) -> [String] {
        var names: [String] = []
        let length = prefix.utf8.count
        var entry = environ
        while let pointer = entry.pointee {
            entry += 1
            guard strncmp(pointer, prefix, length) == 0, let equals = strchr(pointer, Int32(UInt8(ascii: "="))) else { continue }
            let name = PathText.string(bytes: UnsafeRawBufferPointer(start: pointer, count: equals - pointer))
            if !names.contains(name) { names.append(name) }
        }
        return names
    }

    /// How many variables' names start with `prefix` (ASCII): bytes compared, no text made, so the
    /// pre-start fast path pays next to nothing for it.
    package static func count(prefixed prefix: String) -> Int {
        let length = prefix.utf8.count
        var count = 0
        var entry = environ
        while let pointer = entry.pointee {
            entry += 1
            if strncmp(pointer, prefix, length) == 0 { count += 1 }
        }
        return count
    }

    /// Whether the variable `name` is set (`getenv(3)`), without making a text of its value.
    package static func isSet(_ name: String) -> Bool {
        getenv(name) != nil
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
