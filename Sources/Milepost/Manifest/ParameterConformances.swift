import MilepostSystem

/// Which optional protocols each step's parameters type adopts (`ParameterWarnings`,
/// `DefinitionFileParameters`), found once per type (`PerTypeMemo`): casting every step's decoded
/// parameters is a conformance lookup in the runtime each time (≈ 1.3 k instructions a cast).
struct ParameterConformances {
    struct Adopted: Sendable {
        var warnings: Bool
        var definitionFiles: Bool
    }

    /// Whether values of `type` may adopt each protocol: false only when none can, so that their
    /// cast is skipped. An `Optional` type may (a cast of its value looks through it, a check of
    /// the type does not), so its values are still cast.
    func of(_ type: Any.Type) -> Adopted { Self.adopted(type) }

    private static let adopted = PerTypeMemo<Adopted> { type in
        let optional = type is any OptionalParameters.Type
        return Adopted(
            warnings: optional || type is any ParameterWarnings.Type,
            definitionFiles: optional || type is any DefinitionFileParameters.Type)
    }
}

/// Marks `Optional`, for `ParameterConformances`.
private protocol OptionalParameters {}
extension Optional: OptionalParameters {}
