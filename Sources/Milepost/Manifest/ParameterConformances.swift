/// Which optional protocols each step's parameters type adopts (`ParameterWarnings`,
/// `DefinitionFileParameters`), found once per type: casting every step's decoded parameters is a
/// conformance lookup in the runtime each time (≈ 1.3 k instructions a cast).
struct ParameterConformances {
    struct Adopted {
        var warnings: Bool
        var definitionFiles: Bool
    }

    private var known: [ObjectIdentifier: Adopted] = [:]

    /// Whether values of `type` may adopt each protocol: false only when none can, so that their
    /// cast is skipped. An `Optional` type may (a cast of its value looks through it, a check of
    /// the type does not), so its values are still cast.
    mutating func of(_ type: Any.Type) -> Adopted {
        let key = ObjectIdentifier(type)
        if let adopted = known[key] { return adopted }
        let optional = type is any OptionalParameters.Type
        let adopted = Adopted(
            warnings: optional || type is any ParameterWarnings.Type,
            definitionFiles: optional || type is any DefinitionFileParameters.Type)
        known[key] = adopted
        return adopted
    }
}

/// Marks `Optional`, for `ParameterConformances`.
private protocol OptionalParameters {}
extension Optional: OptionalParameters {}
