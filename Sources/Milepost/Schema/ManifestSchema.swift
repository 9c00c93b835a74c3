/// The JSON Schema (draft 2020-12) of a manifest for one registry, for editors (the YAML language
/// server of VS Code, IntelliJ and Neovim) and CI: the top-level keys, version thresholds, both step
/// forms, `name` as one of the registered steps, and each step's `with:` from its parameter type.
///
/// It accepts everything `Manifest` accepts. What a schema cannot say stays the manifest
/// decoder's job: thresholds equal as versions (`2.1` and `2.1.0`), duplicate step ids, checks a
/// parameter type makes across its keys.
///
/// ```swift
/// print(ManifestSchema(registry: .standard).jsonText)
/// ```
public struct ManifestSchema: Sendable {
    /// The steps the schema describes.
    public let registry: StepRegistry

    public init(registry: StepRegistry) {
        self.registry = registry
    }

    /// The schema as pretty-printed JSON.
    public var jsonText: String { document.jsonText }

    // MARK: - Patterns shared with the parameter schemas

    static let versionPattern = #"^[vV]?[0-9]+(\.[0-9]+)*(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?(\+.*)?$"#
    static let durationPattern = #"^(([0-9]+(\.[0-9]*)?|\.[0-9]+)(ms|s|m|h|d))+$"#
    static let stepNamePattern = "^\(StepName.pattern)$"
    /// `revert: none`: the step has nothing to undo.
    static let revertNone: SchemaValue = .object([("const", .string("none"))])

    /// A version: its text (a plain `2.0` reaches a schema validator as a number).
    static let versionSchema = SchemaValue.object([
        ("type", .array([.string("string"), .string("number")])),
        ("pattern", .string(versionPattern)),
        ("description", .string("a version: 2, 2.1, v2.10.3, 3.0.0-rc.1")),
    ])

    /// `late: warn | run | fail`.
    static let latePolicySchema = SchemaValue.object([
        ("enum", .array(LatePolicy.allCases.map { .string($0.rawValue) })),
    ])

    // MARK: - The document

    var document: SchemaValue {
        .object([
            ("$schema", .string("https://json-schema.org/draft/2020-12/schema")),
            ("title", .string("Milepost manifest")),
            ("description", .string(
                "Version thresholds mapped to the one-time steps that run when an application moves past them. "
                    + "Validating the manifest also checks what a schema cannot: thresholds equal as versions, duplicate step ids.")),
            ("type", .string("object")),
            ("properties", .object([
                ("app", .object([
                    ("description", .string("A label shown in output and the journal.")),
                    ("type", .array(["string", "number", "boolean", "null"].map(SchemaValue.string))),
                ])),
                ("baseline", Self.versionSchema.setting(
                    "description", .string("The version assumed when no state exists (default 0)."))),
                ("variables", .object([
                    ("description", .string("The variables whose ${NAME} in with: strings is substituted when the manifest is loaded; any other ${…} is kept for the step's shell.")),
                    ("type", .string("array")),
                    ("items", .object([("type", .string("string")), ("pattern", .string("^[A-Za-z_][A-Za-z0-9_]*$"))])),
                ])),
                ("secrets", .object([
                    ("description", .string("Variables whose values are secrets: masked as *** in the state, the journal, logs and output.")),
                    ("type", .string("array")),
                    ("items", .object([("type", .string("string")), ("pattern", .string("^[A-Za-z_][A-Za-z0-9_]*$"))])),
                ])),
                ("late", Self.latePolicySchema.setting(
                    "description", .string("What a run does with a step added at or below a version the store already reached: warn (default), run or fail."))),
                ("upgrade_from", Self.versionSchema.setting(
                    "description", .string("The oldest stored version this manifest upgrades; a run from below is refused (exit 5)."))),
                ("stops", .object([
                    ("description", .string("Required stops: versions an upgrade must reach, in order, before going past them (exit 5).")),
                    ("type", .string("array")), ("items", Self.versionSchema), ("uniqueItems", .bool(true)),
                ])),
                ("hooks", .object([
                    ("description", .string("Steps run around a run that has steps to run, never recorded as completed: before_run, after_run, on_failure.")),
                    ("type", .string("object")),
                    ("properties", .object(ManifestHooks.Phase.allCases.map { ($0.rawValue, .object([("$ref", .string("#/$defs/steps"))])) })),
                    ("additionalProperties", .bool(false)),
                ])),
                ("migrations", .object([
                    ("description", .string("Version thresholds, each with the list of steps that run when an upgrade passes it.")),
                    ("type", .string("object")),
                    ("propertyNames", .object([("pattern", .string(Self.versionPattern))])),
                    ("additionalProperties", .object([("$ref", .string("#/$defs/steps"))])),
                ])),
            ])),
            ("patternProperties", .object([
                ("^x-", .object([("description", .string("An extension key, ignored: a place for anchors (&defaults) that steps merge or alias."))])),
            ])),
            ("required", .array([.string("migrations")])),
            ("additionalProperties", .bool(false)),
            ("$defs", .object([
                ("steps", .object([
                    ("type", .string("array")),
                    ("minItems", .integer(1)),
                    ("items", .object([("$ref", .string("#/$defs/step"))])),
                ])),
                ("step", .object([
                    ("anyOf", .array([
                        .object([("$ref", .string("#/$defs/stepName"))]),
                        .object([("$ref", .string("#/$defs/stepEntry"))]),
                    ])),
                ])),
                ("stepName", stepName),
                ("stepEntry", stepEntry),
            ])),
        ])
    }

    /// The short form, and `name:` of the long one.
    private var stepName: SchemaValue {
        .object([
            ("description", .string("A registered step.")),
            ("type", .string("string")),
            ("enum", .array(registry.all.map { .string($0.name) })),
        ])
    }

    private var stepEntry: SchemaValue {
        let stepID = SchemaValue.object([
            ("description", .string("Names the step in its threshold (default: its name); the step's id is THRESHOLD/ID.")),
            // `id: null` and `id: true` are read from their text, which is a valid id.
            ("type", .array(["string", "boolean", "null"].map(SchemaValue.string))),
            ("pattern", .string(Self.stepNamePattern)),
        ])
        return .object([
            ("type", .string("object")),
            ("properties", .object([
                ("name", .object([("$ref", .string("#/$defs/stepName"))])),
                ("id", stepID),
                ("with", .object([("description", .string("The step's parameters."))])),
                ("timeout", .object([
                    ("description", .string("Time limit per attempt: numbers with units ms, s, m, h, d: 250ms, 30s, 1h30m, 1.5h.")),
                    ("type", .string("string")),
                    ("pattern", .string(Self.durationPattern)),
                ])),
                ("expected", .object([
                    ("description", .string(
                        "How long the step is expected to take, used by plan --deadline and run --deadline where no run of it is "
                            + "recorded: numbers with units ms, s, m, h, d.")),
                    ("type", .string("string")),
                    ("pattern", .string(Self.durationPattern)),
                ])),
                ("requires", .object([
                    ("description", .string("approval: a run stops before this step until `milepost approve` records an approval of it.")),
                    ("enum", .array(StepRequirement.allCases.map { .string($0.rawValue) })),
                ])),
                ("retries", .object([
                    ("description", .string("Extra attempts after a failure.")),
                    ("type", .string("integer")), ("minimum", .integer(0)), ("maximum", .integer(100)),
                ])),
                ("idempotent", .object([
                    ("description", .string("Safe to run again after an interruption.")),
                    ("type", .string("boolean")),
                ])),
                ("resumable", .object([
                    ("description", .string("Resumes at its last committed cursor after an interruption, without resolve.")),
                    ("type", .string("boolean")),
                ])),
                ("late", Self.latePolicySchema.setting(
                    "description", .string("This step's late policy, over the manifest's `late:`."))),
                ("replaces", .object([
                    ("description", .string("The id (ID or THRESHOLD/ID) of the step this one renames: its history carries over.")),
                    ("type", .string("string")),
                ])),
                ("labels", Self.labelsSchema),
                ("when", .object([
                    ("description", .string("Run this step only in a fresh install (the store has reached no version yet) or only in an upgrade.")),
                    ("enum", .array(StepCondition.allCases.map { .string($0.rawValue) })),
                ])),
                ("phase", .object([
                    ("description", .string(
                        "Which run runs this step: pre-start (default), contract (once no older release runs: run --phase contract, "
                            + "or the next release's run) or background (run --phase background).")),
                    ("enum", .array(StepPhase.allCases.map { .string($0.rawValue) })),
                ])),
                ("after", .object([
                    ("description", .string(
                        "background, on a contract step: it runs only once every background step at or below its threshold "
                            + "has completed; a contract run waits for them.")),
                    ("enum", .array([.string(StepPhase.background.rawValue)])),
                ])),
                ("scope", .object([
                    ("description", .string(
                        "fleet (default): runs once, recorded in --store; host: runs once on every host, recorded in --host-store.")),
                    ("enum", .array(StepScope.allCases.map { .string($0.rawValue) })),
                ])),
                ("repeat", .object([
                    ("description", .string("on-change: a repeatable step, run again after the one-time steps whenever its entry or revision changes.")),
                    ("enum", .array(RepeatPolicy.allCases.map { .string($0.rawValue) })),
                ])),
                ("revert", .object([
                    ("description", .string(
                        "The step's revert, for `milepost revert`: none when there is nothing to undo; exec: the keys of its `with:`.")),
                    ("anyOf", .array([.object([("type", .string("object"))]), Self.revertNone])),
                ])),
                ("description", .object([
                    ("description", .string("Shown by plan and in the journal.")),
                    ("type", .array(["string", "number", "boolean", "null"].map(SchemaValue.string))),
                ])),
            ])),
            ("required", .array([.string("name")])),
            ("additionalProperties", .bool(false)),
            ("allOf", .array(registry.all.map(parameters(of:)))),
        ])
    }

    /// `with:` of the entries that name `definition`.
    private func parameters(of definition: StepDefinition) -> SchemaValue {
        var with = ParameterProbe.schema(of: definition.parametersType)
        let required = with["required"].map { $0 != .array([]) } ?? false
        if !required { with = with.allowingNull }  // no `with:`, or an empty one, decodes as no keys
        if let description = definition.description { with = with.setting("description", .string(description)) }
        // `revert:` takes the parameters of `with:` where the step reverts with them (`exec`), and
        // `none` where no revert is registered.
        let revert: SchemaValue = if definition.revertsWithManifestParameters {
            .object([("anyOf", .array([ParameterProbe.schema(of: definition.parametersType), Self.revertNone]))])
        } else {
            definition.hasRegisteredRevert ? .bool(false) : Self.revertNone
        }
        var then: [(key: String, value: SchemaValue)] = [("properties", .object([("with", with), ("revert", revert)]))]
        if required { then.append(("required", .array([.string("with")]))) }
        return .object([
            ("if", .object([
                ("properties", .object([("name", .object([("const", .string(definition.name))]))])),
                ("required", .array([.string("name")])),
            ])),
            ("then", .object(then)),
        ])
    }
}
