/// Which optional protocols each step's parameters type adopts (`ParameterWarnings`,
/// `DefinitionFileParameters`), found once per type: casting every step's decoded parameters is a
/// conformance lookup in the runtime each time (≈ 1.3 k instructions a cast).
struct ParameterConformances {
    struct Adopted {
        var warnings: Bool
        var definitionFiles: Bool
    }

    private var known: [ObjectIdentifier: Adopted] = [:]

    mutating func of(_ type: Any.Type) -> Adopted {
        let key = ObjectIdentifier(type)
        if let adopted = known[key] { return adopted }
        let adopted = Adopted(
            warnings: type is any ParameterWarnings.Type, definitionFiles: type is any DefinitionFileParameters.Type)
        known[key] = adopted
        return adopted
    }
}
