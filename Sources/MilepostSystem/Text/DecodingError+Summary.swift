extension DecodingError {
    /// A one-line account of `error` for a message: `summary` for a `DecodingError`, its
    /// description for anything else. The one wording of decoding failures of stored data.
    package static func summary(of error: any Error) -> String {
        (error as? DecodingError)?.summary ?? "\(error)"
    }

    /// A one-line account of the failure with the dotted path of the faulty field,
    /// e.g. "`completed.0.id`: Expected to decode String but found number instead."
    package var summary: String {
        if case .keyNotFound(let key, let keyContext) = self {
            return "the field `\(Self.dotted(keyContext.codingPath + [key]))` is missing"
        }
        guard let context else { return "\(self)" }
        let path = Self.dotted(context.codingPath)
        return path.isEmpty ? context.debugDescription : "`\(path)`: \(context.debugDescription)"
    }

    /// The context of any case (nil only for a case added after this was written).
    package var context: Context? {
        switch self {
        case .keyNotFound(_, let context), .typeMismatch(_, let context), .valueNotFound(_, let context),
             .dataCorrupted(let context):
            context
        @unknown default:
            nil
        }
    }

    private static func dotted(_ path: [any CodingKey]) -> String {
        path.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
    }
}
