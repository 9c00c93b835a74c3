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
        return shown + parts.query(keeping: parts.query?.filter { !StoreURL.setsPassword($0) } ?? [])
    }
}
