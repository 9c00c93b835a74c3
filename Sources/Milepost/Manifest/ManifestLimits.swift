public import MilepostYAML

/// The budgets a manifest is read within (size, nesting, aliases): the YAML reader's limits, named
/// here so that callers of `Manifest.load` need not know the YAML layer.
public typealias ManifestLimits = YAMLLimits
