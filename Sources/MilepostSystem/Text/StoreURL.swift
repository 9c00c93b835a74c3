/// A server store's URL (`postgres://`, `mysql://`) split as libpq splits one
/// (`conninfo_uri_parse_options`): the one reading of where its password is, for the stores that
/// take it apart and for what is shown of it (`URLPassword`). After `scheme://`, the user
/// information runs to the first `@` before any `/` — a `?` does not end it: libpq reads
/// `postgres://app:pa?ss@db/shop` as the password `pa?ss` — and the password from its first `:`;
/// the query starts at the first `?` after it.
package struct StoreURL {
    /// `scheme://`.
    package let prefix: Substring
    /// The user name as written (percent-encoded); nil without user information.
    package let user: Substring?
    /// The password as written (percent-encoded); nil without a `:` in the user information.
    package let password: Substring?
    /// The hosts, ports and path: from after the user information to the query.
    package let location: Substring
    /// The URL up to its query, without the `?`.
    package let base: Substring
    /// The query's `&`-separated items as written, empty ones left out; nil without a `?`.
    package let query: [Substring]?

    /// Splits `url`; nil when it has no `://`. Read by Unicode scalar, as libpq reads bytes: a
    /// delimiter followed by a combining mark is still a delimiter.
    package init?(_ url: String) {
        let scalars = url.unicodeScalars
        guard let schemeEnd = scalars.firstRange(of: "://".unicodeScalars)?.upperBound else { return nil }
        prefix = Substring(scalars[..<schemeEnd])
        var rest = scalars[schemeEnd...]
        if let at = rest.firstIndex(where: { $0 == "@" || $0 == "/" }), rest[at] == "@" {
            let userInformation = rest[..<at]
            let colon = userInformation.firstIndex(of: ":")
            user = Substring(userInformation[..<(colon ?? at)])
            password = colon.map { Substring(userInformation[userInformation.index(after: $0)...]) }
            rest = rest[rest.index(after: at)...]
        } else {
            (user, password) = (nil, nil)
        }
        let mark = rest.firstIndex(of: "?")
        location = Substring(rest[..<(mark ?? rest.endIndex)])
        base = Substring(scalars[..<(mark ?? rest.endIndex)])
        query = mark.map { rest[rest.index(after: $0)...].split(separator: "&").map(Substring.init) }
    }

    /// `kept` (items of this URL's query) as the query to write after its base: `?` and the items
    /// joined by `&`; empty for none. Without user information, the `/` that kept an `@` of the
    /// query from starting one may have been in an item left out: the kept items' `@` are
    /// percent-encoded (libpq decodes them), so that the URL written reads as the one given, less
    /// what was left out.
    package func query(keeping kept: [Substring]) -> String {
        guard !kept.isEmpty else { return "" }
        guard user == nil else { return "?" + kept.joined(separator: "&") }
        return "?" + kept.map(Self.encodingAt).joined(separator: "&")
    }

    /// `item` with each `@` percent-encoded, found by Unicode scalar as the URL is split: an `@`
    /// followed by a combining mark is still one.
    private static func encodingAt(_ item: Substring) -> String {
        var encoded = ""
        for scalar in item.unicodeScalars {
            if scalar == "@" { encoded += "%40" } else { encoded.unicodeScalars.append(scalar) }
        }
        return encoded
    }

    /// True for a query item that sets the password: its name, percent-decoded, is `password`
    /// in any case (libpq decodes the names of its parameters).
    package static func setsPassword(_ item: Substring) -> Bool {
        let name = parameter(item).name
        return (PercentDecoding.decoded(name) ?? String(name)).lowercased() == "password"
    }

    /// A query item's name (up to its first `=`) and value (after it; empty without one), as
    /// written, split by Unicode scalar as the URL is: an `=` followed by a combining mark still
    /// ends the name (split by `Character`, the name would run on into the value — a password).
    package static func parameter(_ item: Substring) -> (name: Substring, value: Substring) {
        let scalars = item.unicodeScalars
        guard let equals = scalars.firstIndex(of: "=") else { return (item, item[item.endIndex...]) }
        return (Substring(scalars[..<equals]), Substring(scalars[scalars.index(after: equals)...]))
    }
}
