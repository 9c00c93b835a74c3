import MilepostYAML

/// `${NAME}`, `${NAME:-default}` and `${NAME:?message}` in the `with:` strings of a manifest, the
/// syntax docker compose and goose use. Only `${` starts a variable: `$${` writes a literal `${`
/// and any other `$` (`$HOME`, `$$`) is kept as written, so shell commands keep working, as is
/// `${MILEPOST_…}` (the variables Milepost sets for the step).
///
/// - `${NAME}`: the value; unset is an error (write `${NAME:-}` for an empty default).
/// - `${NAME:-default}`: the value, or `default` when unset or empty.
/// - `${NAME:?message}`: the value; unset or empty is an error with `message`.
/// - `${secret:NAME}`: as `${NAME}`, and the value is a secret (see `ManifestVariables.secrets`).
enum VariableSubstitution {
    /// `${MILEPOST_…}` names a variable Milepost gives the step (`MILEPOST_STEP`,
    /// `MILEPOST_RESUME_CURSOR`, …): it is left as written, for the step's shell to expand.
    static let stepVariablePrefix = "MILEPOST_"

    /// One `${…}` of a text.
    struct Reference: Equatable {
        enum Fallback: Equatable {
            case none
            case defaultValue(String)
            case required(message: String)
        }

        var name: String
        var fallback: Fallback
        var secret: Bool
    }

    /// What is wrong with a `${…}`, worded for a manifest author.
    struct Problem: Error {
        var message: String
    }

    /// The pieces of `text`: literal text and references, in order. Throws on a malformed `${…}`.
    static func parse(_ text: String) throws(Problem) -> [Either] {
        var pieces: [Either] = []
        var literal = ""
        var rest = Substring(text)
        while let dollar = rest.firstIndex(of: "$") {
            literal += rest[..<dollar]
            let after = rest[rest.index(after: dollar)...]
            if after.hasPrefix("${") {
                literal += "${"
                rest = after.dropFirst(2)
            } else if after.hasPrefix("{") {
                guard let close = after.firstIndex(of: "}") else {
                    throw Problem(message: "'${' without a closing '}'")
                }
                let inside = String(after[after.index(after: after.startIndex)..<close])
                rest = after[after.index(after: close)...]
                if inside.hasPrefix(stepVariablePrefix) {
                    literal += "${" + inside + "}"  // the step's own variable, for its shell
                    continue
                }
                if !literal.isEmpty { pieces.append(.text(literal)) }
                literal = ""
                pieces.append(.reference(try reference(inside)))
            } else {
                literal += "$"
                rest = after
            }
        }
        literal += rest
        if !literal.isEmpty { pieces.append(.text(literal)) }
        return pieces
    }

    enum Either: Equatable {
        case text(String)
        case reference(Reference)
    }

    /// The decoder hook that substitutes the variables of each string decoded from `with:`; with nil
    /// values, it only checks the syntax and keeps the text.
    /// The value of each `${secret:NAME}` substituted goes into `secrets`.
    static func transform(_ variables: ManifestVariables?, secrets: SecretValues) -> YAMLNodeDecoder.StringTransform {
        { text, node throws(YAMLError) in
            guard text.utf8.contains(UInt8(ascii: "$")) else { return text }
            do throws(Problem) {
                let pieces = try parse(text)
                guard let values = variables?.values else { return text }
                for case .reference(let reference) in pieces where reference.secret {
                    if let value = values[reference.name] { secrets.insert(value) }
                }
                return try substitute(pieces, values: values)
            } catch {
                throw YAMLError(error.message, at: node.location)
            }
        }
    }

    /// The text of `pieces` with each reference replaced by its value in `values`.
    /// - throws: `Problem` for an unset variable without a default.
    static func substitute(_ pieces: [Either], values: [String: String]) throws(Problem) -> String {
        var result = ""
        for piece in pieces {
            switch piece {
            case .text(let text): result += text
            case .reference(let reference): result += try value(of: reference, in: values)
            }
        }
        return result
    }

    static func value(of reference: Reference, in values: [String: String]) throws(Problem) -> String {
        let value = values[reference.name]
        switch reference.fallback {
        case .none:
            guard let value else {
                throw Problem(message: "variable '\(reference.name)' is not set (write ${\(reference.name):-} for an empty default)")
            }
            return value
        case .defaultValue(let fallback):
            guard let value, !value.isEmpty else { return fallback }
            return value
        case .required(let message):
            guard let value, !value.isEmpty else {
                throw Problem(message: "variable '\(reference.name)' is not set" + (message.isEmpty ? "" : ": \(message)"))
            }
            return value
        }
    }

    /// `NAME`, `NAME:-default`, `NAME:?message` or `secret:NAME`, the inside of `${…}`.
    private static func reference(_ inside: String) throws(Problem) -> Reference {
        var body = Substring(inside)
        let secret = body.hasPrefix("secret:")
        if secret { body = body.dropFirst("secret:".count) }
        let nameEnd = body.firstIndex { !isNameCharacter($0) } ?? body.endIndex
        let name = String(body[..<nameEnd])
        guard isName(name) else {
            throw Problem(message: invalidName("in '${\(inside)}'"))
        }
        let operation = body[nameEnd...]
        if operation.isEmpty { return Reference(name: name, fallback: .none, secret: secret) }
        if !secret, operation.hasPrefix(":-") {
            return Reference(name: name, fallback: .defaultValue(String(operation.dropFirst(2))), secret: false)
        }
        if operation.hasPrefix(":?") {
            return Reference(name: name, fallback: .required(message: String(operation.dropFirst(2))), secret: secret)
        }
        throw Problem(message: "invalid '${\(inside)}': write ${NAME}, ${NAME:-default}, ${NAME:?message} or ${secret:NAME}")
    }

    /// Whether `text` is a variable name: letters, digits and `_`, not starting with a digit.
    static func isName(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
        return text.allSatisfy(isNameCharacter)
    }

    /// The message for a name that is not one (`isName`); `subject` says which, e.g. `'1X'`.
    static func invalidName(_ subject: String) -> String {
        "invalid variable name \(subject): use letters, digits and '_', not starting with a digit"
    }

    private static func isNameCharacter(_ character: Character) -> Bool {
        character == "_" || (character.isASCII && (character.isLetter || character.isNumber))
    }
}
