/// The syntax of step names and ids: `[A-Za-z_][A-Za-z0-9_.:-]*`.
enum StepName {
    static let pattern = "[A-Za-z_][A-Za-z0-9_.:-]*"

    static func isValid(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, isLetter(first) || first == "_" else { return false }
        return name.unicodeScalars.allSatisfy { isLetter($0) || ("0"..."9").contains($0) || "_.:-".unicodeScalars.contains($0) }
    }

    private static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }
}
