import MilepostSystem

/// The types decoded straight from scalars: `String` from any non-null scalar's text; `Bool`,
/// integers and floating-point numbers from their core-schema values; `Duration` from `DurationText`.
enum ScalarDecoding {
    /// The value decoded natively, or what `otherwise` decodes (given the type's shape) when `T` is
    /// not decoded natively: a closure rather than an optional result, since `Optional<T>` of the
    /// unspecialised `T` this runs with is a metadata lookup in the runtime on every call.
    static func decode<T>(
        _ type: T.Type, from node: YAMLNode?, at path: CodingPath, strings: YAMLNodeDecoder.StringTransform?,
        otherwise: (NativeShape) throws -> T
    ) throws -> T {
        switch type {
        case is String.Type: return try string(node, at: path, strings: strings) as! T
        case is Bool.Type: return try bool(node, at: path) as! T
        case is Duration.Type: return try duration(node, at: path) as! T
        default: break
        }
        let shape = NativeShape.of(type)
        guard shape == .numeric else { return try otherwise(shape) }
        switch type {
        case let integer as any FixedWidthInteger.Type: return try self.integer(integer, node, at: path) as! T
        case let number as any BinaryFloatingPoint.Type: return try self.number(number, node, at: path) as! T
        default: return try otherwise(shape)
        }
    }

    // MARK: - Text

    /// A `String`: any non-null scalar's text, through `strings` when given.
    static func string(_ node: YAMLNode?, at path: CodingPath, strings: YAMLNodeDecoder.StringTransform?) throws -> String {
        let text = try text(node, expected: "a string", at: path)
        guard let strings, let node else { return text }
        do {
            return try strings(text, node)
        } catch {
            throw YAMLError(DecodingProblem.prefix(path.keys) + error.message, at: error.location ?? node.location,
                            notes: error.notes + node.useNotes)
        }
    }

    private static func text(_ node: YAMLNode?, expected: String, at path: CodingPath) throws -> String {
        guard let node, let text = node.scalar, !node.isNull else {
            throw DecodingProblem.mismatch(expected: expected, found: node, at: path.keys)
        }
        return text
    }

    private static func duration(_ node: YAMLNode?, at path: CodingPath) throws -> Duration {
        let expected = DecodingProblem.expected(Duration.self)
        guard let duration = DurationText.parse(try text(node, expected: expected, at: path)) else {
            throw DecodingProblem.mismatch(expected: expected, found: node, at: path.keys)
        }
        return duration
    }

    // MARK: - Core values

    private static func bool(_ node: YAMLNode?, at path: CodingPath) throws -> Bool {
        guard let node, node.kind == .scalar, case .bool(let value) = node.core else {
            throw DecodingProblem.mismatch(expected: "a boolean", found: node, at: path.keys)
        }
        return value
    }

    private static func integer<I: FixedWidthInteger>(_ type: I.Type, _ node: YAMLNode?, at path: CodingPath) throws -> I {
        guard let node, node.kind == .scalar else {
            throw DecodingProblem.mismatch(expected: "an integer", found: node, at: path.keys)
        }
        let value: I?
        switch node.core {
        case .int(let int):
            value = I(exactly: int)
        case .bigInt:
            value = node.storage.withScalarBytes(node.index) { CoreScalar.IntegerLiteral($0)?.value(as: I.self) }
        default:
            throw DecodingProblem.mismatch(expected: "an integer", found: node, at: path.keys)
        }
        guard let value else {
            throw DecodingProblem.mismatch(expected: "an integer in \(I.min)...\(I.max) (\(type))", found: node, at: path.keys)
        }
        return value
    }

    private static func number<F: BinaryFloatingPoint>(_ type: F.Type, _ node: YAMLNode?, at path: CodingPath) throws -> F {
        guard let node, node.kind == .scalar else {
            throw DecodingProblem.mismatch(expected: "a number", found: node, at: path.keys)
        }
        let double: Double?
        switch node.core {
        case .int(let int): double = Double(int)
        case .float(let float): double = float
        case .bigInt: double = node.scalar.flatMap(Double.init)
        default: double = nil
        }
        guard let double else {
            throw DecodingProblem.mismatch(expected: "a number", found: node, at: path.keys)
        }
        let value = F(double)
        if double.isFinite, !value.isFinite {
            throw DecodingProblem.mismatch(expected: "a number within the range of \(type)", found: node, at: path.keys)
        }
        return value
    }
}
