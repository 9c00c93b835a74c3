/// The one rule for showing a URL that may carry a password (a `--store postgres://…`): the password
/// of the user information (`user:secret@`) and every `password=` query parameter are left out,
/// where libpq would find them (`StoreURL`). Every message, document and suggested command that
/// shows a store goes through it.
package enum URLPassword {
    /// `postgres://user:secret@host/db?sslmode=require&password=x` → `postgres://user@host/db?sslmode=require`.
    /// Text without `://` (a directory) is returned as it is.
    package static func removed(from url: String) -> String {
        guard let parts = StoreURL(url) else { return url }
        var shown = String(parts.prefix)
        if let user = parts.user { shown += user + "@" }
        shown += parts.location
        guard let kept = parts.query?.filter({ !StoreURL.setsPassword($0) }), !kept.isEmpty else { return shown }
        // Without user information, the `/` that kept an `@` of the query from starting one may have
        // been in a removed `password=` item: the kept items' `@` are shown percent-encoded (libpq
        // decodes them), so that the URL shown reads as the one given, less its password.
        guard parts.user == nil else { return shown + "?" + kept.joined(separator: "&") }
        return shown + "?" + kept.map(Self.encodingAt).joined(separator: "&")
    }

    /// `item` with each `@` percent-encoded, found by Unicode scalar as `StoreURL` splits: an `@`
    /// followed by a combining mark is still one.
    private static func encodingAt(_ item: Substring) -> String {
        var encoded = ""
        for scalar in item.unicodeScalars {
            if scalar == "@" { encoded += "%40" } else { encoded.unicodeScalars.append(scalar) }
        }
        return encoded
    }
}
