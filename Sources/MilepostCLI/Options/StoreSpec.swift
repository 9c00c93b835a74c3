import ArgumentParser

/// How a `--store` value (or `MILEPOST_STORE`) is read, whatever opener the binary has: a value that
/// starts with a URL scheme and a colon (RFC 3986: a letter, then letters, digits, `+`, `-` or `.`)
/// is a URL, opened only when the binary's opener declares that scheme; anything else is a directory
/// path. So `postgress://db/app` or `mongodb://…` is refused, never a directory named `postgress:`; a
/// directory whose name looks like a scheme (`x:`) is named as a path: `./x:`.
package enum StoreSpec {
    /// The scheme `spec` starts with (`postgres` for `postgres://…`, `x` for `x:`), or nil for a path.
    package static func scheme(of spec: String) -> String? {
        guard let colon = spec.firstIndex(of: ":") else { return nil }
        let scheme = spec[..<colon]
        guard let first = scheme.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic,
              scheme.unicodeScalars.allSatisfy({
                  $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0))
              })
        else { return nil }
        return String(scheme)
    }

    /// Refuses a URL whose scheme is not one of `schemes` (the schemes the binary opens).
    /// - throws: `ValidationError` (exit 64) naming the scheme, never the rest of the URL (it may
    ///   hold a password), and what the binary opens instead.
    static func check(_ spec: String, schemes: [String]) throws {
        guard let scheme = scheme(of: spec), !schemes.contains(scheme) else { return }
        // Only the scheme is named: the rest of a URL differs between stores (`postgres://…`, `sqlite:PATH`).
        let opened = schemes.isEmpty ? "no URL" : "the URL schemes " + schemes.map { "\($0):" }.joined(separator: ", ")
        throw ValidationError(
            "--store: no store for the scheme '\(scheme):'; this binary opens \(opened) and directory paths "
                + "(a directory whose name starts with '\(scheme):' is written ./\(scheme):…)")
    }
}
