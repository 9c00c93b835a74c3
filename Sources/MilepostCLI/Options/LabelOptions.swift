import ArgumentParser
import Milepost

/// `--labels EXPR` (env `MILEPOST_LABELS`): which labelled steps are in scope.
struct LabelOptions: ParsableArguments {
    @Option(name: .customLong(OptionNames.labels), help: ArgumentHelp(
        "Only labelled steps this expression matches are in scope: labels with and, or, not and parentheses, "
            + "e.g. 'eu and not heavy' (env MILEPOST_LABELS; default: every step). Unlabelled steps always are.",
        valueName: "expression"))
    var labels: String?

    /// Refuses an expression that does not parse while parsing, with the command's usage.
    func validate() throws { _ = try expression }

    /// The expression from the flag, else `MILEPOST_LABELS`; nil when neither gives one.
    /// - throws: `ValidationError` pointing at the column of a syntax error (naming `MILEPOST_LABELS`
    ///   when the expression is its), or for an empty value.
    var expression: LabelExpression? {
        get throws {
            guard let text = try Self.text(labels) else { return nil }
            do {
                return try LabelExpression(parsing: text)
            } catch {
                throw ValidationError("\(labels == nil ? "\(Self.environmentName): " : "")invalid label expression at \(error)")
            }
        }
    }

    /// The flag's text, else the environment's.
    static func text(_ flag: String?) throws -> String? {
        try Setting.value(flag: flag, named: OptionNames.labels, environment: environmentName)
    }

    static let environmentName = Setting.variable(OptionNames.labels)
}
