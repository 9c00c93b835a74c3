extension DecodingError {
    /// A one-line account of the failure with the dotted path of the faulty field,
    /// e.g. "`completed.0.id`: Expected to decode String but found number instead."
    var summary: String {
        let context: Context
        switch self {
        case .keyNotFound(let key, let keyContext):
            return "the field `\(Self.dotted(keyContext.codingPath + [key]))` is missing"
        case .typeMismatch(_, let mismatchContext), .valueNotFound(_, let mismatchContext):
            context = mismatchContext
        case .dataCorrupted(let corruptContext):
            context = corruptContext
        @unknown default:
            return "\(self)"
        }
        let path = Self.dotted(context.codingPath)
        return path.isEmpty ? context.debugDescription : "`\(path)`: \(context.debugDescription)"
    }

    private static func dotted(_ path: [any CodingKey]) -> String {
        path.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
    }
}
