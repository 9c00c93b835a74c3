import MilepostSystem

/// Which optional protocols each step's parameters type adopts (`ParameterWarnings`,
/// `DefinitionFileParameters`, `StoreBoundParameters`), found once per type (`PerTypeMemo`): casting every step's decoded
/// parameters is a conformance lookup in the runtime each time (≈ 1.3 k instructions a cast).
enum ParameterConformances {
    struct Adopted: OptionSet, Sendable {
        let rawValue: UInt8
        static let warningsBit = Adopted(rawValue: 1)
        static let definitionFilesBit = Adopted(rawValue: 2)
        static let storeBoundBit = Adopted(rawValue: 4)

        var warnings: Bool { contains(.warningsBit) }
        var definitionFiles: Bool { contains(.definitionFilesBit) }
        var storeBound: Bool { contains(.storeBoundBit) }
    }

    /// Whether values of `type` may adopt each protocol: false only when none can, so that their
    /// cast is skipped. An `Optional` type may (a cast of its value looks through it, a check of
    /// the type does not), so its values are still cast.
    static func of(_ type: Any.Type) -> Adopted { Adopted(rawValue: adopted(type)) }

    private static let adopted = PerTypeMemo { type in
        let optional = type is any OptionalParameters.Type
        var adopted: Adopted = []
        if optional || type is any ParameterWarnings.Type { adopted.insert(.warningsBit) }
        if optional || type is any DefinitionFileParameters.Type { adopted.insert(.definitionFilesBit) }
        if optional || type is any StoreBoundParameters.Type { adopted.insert(.storeBoundBit) }
        return adopted.rawValue
    }
}

/// Marks `Optional`, for `ParameterConformances`.
private protocol OptionalParameters {}
extension Optional: OptionalParameters {}
