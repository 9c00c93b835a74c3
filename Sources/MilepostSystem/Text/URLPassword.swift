/// The one rule for showing a URL that may carry a password (a `--store postgres://…`): the password
/// of the authority (`user:secret@`) and every `password=` query parameter are left out. Every
/// message, document and suggested command that shows a store goes through it.
package enum URLPassword {
    /// `postgres://user:secret@host/db?sslmode=require&password=x` → `postgres://user@host/db?sslmode=require`.
    /// Text without `://` (a directory) is returned as it is.
    package static func removed(from url: String) -> String {
        guard let schemeEnd = url.firstRange(of: "://") else { return url }
        let (base, query) = url.firstIndex(of: "?").map { (url[..<$0], url[url.index(after: $0)...]) } ?? (url[...], nil)
        var shown = String(url[..<schemeEnd.upperBound])
        let rest = base[schemeEnd.upperBound...]
        let authorityEnd = rest.firstIndex(of: "/") ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        if let at = authority.lastIndex(of: "@") {
            let userInfo = authority[..<at]
            shown += (userInfo.firstIndex(of: ":").map { userInfo[..<$0] } ?? userInfo) + authority[at...]
        } else {
            shown += authority
        }
        shown += rest[authorityEnd...]
        guard let query else { return shown }
        let kept = query.split(separator: "&").filter { !$0.lowercased().hasPrefix("password=") }
        return kept.isEmpty ? shown : shown + "?" + kept.joined(separator: "&")
    }
}
