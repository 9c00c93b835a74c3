import MilepostSystem
import MilepostYAML

/// `${NAME}`, `${NAME:-default}` and `${NAME:?message}` in the `with:` strings of a manifest, the
/// syntax docker compose and goose use, for the variables the manifest declares (`variables:` or
/// `secrets:`; `${secret:NAME}` declares itself). Any other `${…}` — `${x:-none}` in a shell script,
/// `${#list[@]}`, `${MILEPOST_…}` (the variables Milepost sets for the step) — is the step's shell's
/// and is kept exactly as written, as is every `$` not followed by `{` (`$HOME`, `$$`). `$${`
/// writes a literal `${`.
///
/// - `${NAME}`: the value; unset is an error (write `${NAME:-}` for an empty default).
/// - `${NAME:-default}`: the value, or `default` when unset or empty.
/// - `${NAME:?message}`: the value; unset or empty is an error with `message`.
/// - `${secret:NAME}`: as `${NAME}`, and the value is a secret (see `ManifestVariables.secrets`).
///
/// An unset variable is not an error while decoding: the use is recorded (`VariableUses`) and kept
/// as written, and is an error for the step it is in only when a command runs (or reverts) that step.
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
        /// The `${…}` as written.
        var written: String
    }

    /// What is wrong with a `${…}`, worded for a manifest author.
    struct Problem: Error {
        var message: String
    }

    /// The pieces of `text`: literal text, references to the `declared` variables, and other `${…}`
    /// kept for the shell, in order. Throws on a malformed reference to a declared variable.
    static func parse(_ text: String, declared: Set<String>) throws(Problem) -> [Either] {
        var pieces: [Either] = []
        var literal = ""
        var rest = Substring(text)
        func flush() {
            if !literal.isEmpty { pieces.append(.text(literal)) }
            literal = ""
        }
        while let dollar = rest.firstIndex(of: "$") {
            literal += rest[..<dollar]
            let after = rest[rest.index(after: dollar)...]
            if after.hasPrefix("${") {
                literal += "${"
                rest = after.dropFirst(2)
            } else if after.hasPrefix("{") {
                let body = after.dropFirst()
                let secret = body.hasPrefix("secret:")
                let name = String(body.dropFirst(secret ? "secret:".count : 0).prefix(while: isNameCharacter))
                let isReference = secret || (declared.contains(name) && !name.hasPrefix(stepVariablePrefix))
                guard let close = after.firstIndex(of: "}") else {
                    if isReference { throw Problem(message: "'${' without a closing '}'") }
                    literal += "$"
                    rest = after
                    continue
                }
                let inside = String(after[after.index(after: after.startIndex)..<close])
                rest = after[after.index(after: close)...]
                flush()
                pieces.append(isReference ? .reference(try reference(inside)) : .shell("${" + inside + "}"))
            } else {
                literal += "$"
                rest = after
            }
        }
        literal += rest
        flush()
        return pieces
    }

    enum Either: Equatable {
        case text(String)
        case reference(Reference)
        /// A `${…}` that names no declared variable, kept as written.
        case shell(String)
    }

    /// The decoder hook that substitutes the declared variables of each string decoded from `with:`
    /// and records each `${…}` in `uses`; with nil values, it only checks the syntax and keeps the
    /// text. The value of each `${secret:NAME}` substituted goes into `secrets`.
    static func transform(_ variables: ManifestVariables?, secrets: SecretValues, uses: VariableUses) -> YAMLNodeDecoder.StringTransform {
        { text, node throws(YAMLError) in
            guard text.containsUTF8(UInt8(ascii: "$")) else { return text }
            do throws(Problem) {
                let pieces = try parse(text, declared: uses.declared)
                var result = ""
                for piece in pieces {
                    switch piece {
                    case .text(let literal):
                        result += literal
                    case .shell(let written):
                        uses.record(.init(written: written, name: nil, location: node.location, outcome: .shell))
                        result += written
                    case .reference(let reference):
                        result += try substitute(reference, from: variables?.values, at: node.location, secrets: secrets, uses: uses)
                    }
                }
                return variables == nil ? text : result
            } catch {
                throw YAMLError(error.message, at: node.location)
            }
        }
    }

    /// The value `reference` takes from `values`, recorded in `uses`; the reference as written when
    /// there are no values or the variable is unset.
    /// - throws: `Problem` for a secret value too short to mask (`SecretValues.unmaskable`).
    private static func substitute(
        _ reference: Reference, from values: [String: String]?, at location: SourceLocation, secrets: SecretValues,
        uses: VariableUses
    ) throws(Problem) -> String {
        var use = VariableUses.Use(written: reference.written, name: reference.name, location: location, outcome: .unchecked)
        defer { uses.record(use) }
        guard let values else { return reference.written }
        let value: String
        do throws(Problem) {
            value = try Self.value(of: reference, in: values)
        } catch {
            use.outcome = .unset(message: error.message)
            return reference.written
        }
        if reference.secret {
            if let problem = SecretValues.unmaskable(value, name: reference.name) { throw Problem(message: problem) }
            secrets.insert(value)
        }
        use.outcome = .substituted
        return value
    }

    /// The text of `pieces` with each reference replaced by its value in `values`.
    /// - throws: `Problem` for an unset variable without a default.
    static func substitute(_ pieces: [Either], values: [String: String]) throws(Problem) -> String {
        var result = ""
        for piece in pieces {
            switch piece {
            case .text(let text), .shell(let text): result += text
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
        let written = "${" + inside + "}"
        if operation.isEmpty { return Reference(name: name, fallback: .none, secret: secret, written: written) }
        if !secret, operation.hasPrefix(":-") {
            return Reference(name: name, fallback: .defaultValue(String(operation.dropFirst(2))), secret: false, written: written)
        }
        if operation.hasPrefix(":?") {
            return Reference(name: name, fallback: .required(message: String(operation.dropFirst(2))), secret: secret, written: written)
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

    static func isNameCharacter(_ character: Character) -> Bool {
        character == "_" || (character.isASCII && (character.isLetter || character.isNumber))
    }
}
