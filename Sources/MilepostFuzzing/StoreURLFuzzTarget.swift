import MilepostCLI
import MilepostMariaDB
import MilepostPostgres
import MilepostSystem

extension FuzzTarget {
    /// A `--store` value (or `MILEPOST_STORE`), as the stock binary reads it: URL or path, and each
    /// server store's URL with Milepost's parameters.
    static let storeURL = FuzzTarget(
        name: "store-url",
        summary: "--store text → StoreSpec, the PostgreSQL and MariaDB stores' settings, URLPassword; the URL shown and "
            + "every refusal are the same whatever the password's letters (libpq's reading of user:password@ and ?password=)"
    ) { bytes in
        let spec = String(decoding: bytes, as: UTF8.self)
        if let scheme = StoreSpec.scheme(of: spec) {
            try oracle(!scheme.isEmpty && spec.hasPrefix(scheme + ":"), "\(spec.debugDescription) has the scheme \(scheme)")
        }
        let shown = URLPassword.removed(from: spec)
        try oracle(URLPassword.removed(from: shown) == shown, "removing the password twice shows more: \(shown.debugDescription)")
        let other = withOtherPasswords(spec)
        guard other != spec else { return }
        let (postgres, otherPostgres) = (ConnectionSettings(url: spec), ConnectionSettings(url: other))
        try oracle(
            postgres.location == otherPostgres.location && postgres.refusal == otherPostgres.refusal,
            "the PostgreSQL store shows the password of \(spec.debugDescription): \(postgres.location.debugDescription), "
                + "\(String(describing: postgres.refusal))")
        let (mariaDB, otherMariaDB) = (MariaDBSettings(url: spec), MariaDBSettings(url: other))
        try oracle(
            mariaDB.location == otherMariaDB.location && mariaDB.refusal == otherMariaDB.refusal,
            "the MariaDB store shows the password of \(spec.debugDescription): \(mariaDB.location.debugDescription), "
                + "\(String(describing: mariaDB.refusal))")
        try oracle(shown == URLPassword.removed(from: other), "URLPassword shows the password of \(spec.debugDescription): \(shown)")
    }

    /// `url` with each password libpq reads in it (`user:PASSWORD@`, `?password=PASSWORD`, the
    /// parameter's name percent-decoded) replaced by another (`otherPassword`); `url` itself when
    /// it has none, or none but punctuation.
    /// libpq's rule (`conninfo_uri_parse_options`): the user information runs from `://` to the
    /// first `@` before any `/`, the password from its first `:`; the query starts at the first
    /// `?` after it.
    static func withOtherPasswords(_ url: String) -> String {
        var bytes = Array(url.utf8)
        guard let schemeEnd = bytes.firstRange(of: Array("://".utf8))?.upperBound else { return url }
        var spans: [Range<Int>] = []
        var hostStart = schemeEnd
        if let at = bytes[schemeEnd...].firstIndex(where: { $0 == UInt8(ascii: "@") || $0 == UInt8(ascii: "/") }),
           bytes[at] == UInt8(ascii: "@") {
            if let colon = bytes[schemeEnd..<at].firstIndex(of: UInt8(ascii: ":")) { spans.append(colon + 1..<at) }
            hostStart = at + 1
        }
        if let mark = bytes[hostStart...].firstIndex(of: UInt8(ascii: "?")) {
            var itemStart = mark + 1
            while itemStart <= bytes.count {
                let itemEnd = bytes[itemStart...].firstIndex(of: UInt8(ascii: "&")) ?? bytes.count
                if let equals = bytes[itemStart..<itemEnd].firstIndex(of: UInt8(ascii: "=")),
                   PercentDecoding.decoded(Substring(decoding: bytes[itemStart..<equals], as: UTF8.self)) == "password" {
                    spans.append(equals + 1..<itemEnd)
                }
                itemStart = itemEnd + 1
            }
        }
        for span in spans.reversed() {
            bytes.replaceSubrange(span, with: otherPassword(bytes[span]))
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Another password for the place of `password` in its URL: each character replaced but the
    /// ASCII punctuation, which is where a URL reader splits (a `/` or `@` in a `?password=` value
    /// still ends the user information where it did: replaced, the URL would be another URL).
    static func otherPassword(_ password: ArraySlice<UInt8>) -> [UInt8] {
        String(decoding: password, as: UTF8.self).unicodeScalars.map { scalar in
            if scalar.isASCII, let byte = UInt8(exactly: scalar.value), urlPunctuation.contains(byte) { return byte }
            return scalar == "Z" ? UInt8(ascii: "Y") : UInt8(ascii: "Z")
        }
    }

    private static let urlPunctuation = Set("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~".utf8)
}
