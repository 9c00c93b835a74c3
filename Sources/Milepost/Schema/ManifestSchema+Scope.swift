// The schema of the keys that choose when a step is in scope: `labels:` (`when:` is an enum).
extension ManifestSchema {
    /// One label, read from its text: `null` and `true` are labels too.
    static let labelSchema = SchemaValue.object([
        ("type", .array(["string", "boolean", "null"].map(SchemaValue.string))),
        ("pattern", .string("^[A-Za-z_][A-Za-z0-9_.-]*$")),
        ("not", .object([("enum", .array(LabelExpression.keywords.sorted().map(SchemaValue.string)))])),
    ])

    /// `labels: [eu, heavy]` or `labels: eu`.
    static let labelsSchema = SchemaValue.object([
        ("description", .string("Names a --labels expression chooses this step by (and, or, not); unlabelled steps are always in scope.")),
        ("anyOf", .array([
            labelSchema,
            .object([("type", .string("array")), ("items", labelSchema), ("uniqueItems", .bool(true))]),
        ])),
    ])
}
