/// How two outputs of a check (`milepost test --verify`) differ.
public enum TextDifference {
    /// The first line (from 1) that is not the same in both texts, a line one of them lacks
    /// included; nil when they are equal.
    public static func firstDifferingLine(_ reference: String, _ other: String) -> Int? {
        guard reference != other else { return nil }
        let left = reference.split(separator: "\n", omittingEmptySubsequences: false)
        let right = other.split(separator: "\n", omittingEmptySubsequences: false)
        return zip(left, right).prefix { $0 == $1 }.count + 1
    }
}
