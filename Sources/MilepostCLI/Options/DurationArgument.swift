import ArgumentParser
import MilepostSystem

/// A duration flag value in `DurationText` syntax: `250ms`, `30s`, `1h30m`, `1.5h`.
struct DurationArgument: Sendable {
    var duration: Duration

    init(_ duration: Duration) { self.duration = duration }

    /// Parses `argument`; a bad value's error says why (a bare number, which units exist).
    init(parsing argument: String) throws {
        do {
            duration = try DurationText.read(argument)
        } catch {
            throw ValidationError(error.description)
        }
    }
}

extension DurationArgument: SettingValue {
    init(setting text: String) throws { try self.init(parsing: text) }
}

extension Option where Value == DurationArgument {
    /// A duration option: `help` with its default appended as ArgumentParser does for other types,
    /// and a bad value rejected with `DurationText`'s reason rather than a bare "invalid".
    init(wrappedValue: DurationArgument, name: NameSpecification = .long, duration help: String) {
        self.init(
            wrappedValue: wrappedValue, name: name, help: ArgumentHelp("\(help) (default: \(DurationText.format(wrappedValue.duration)))"),
            transform: DurationArgument.init(parsing:))
    }
}

extension Option where Value == DurationArgument? {
    /// The duration option `--name`, which its environment variable may give too (`Setting`): nil
    /// when the flag is not given, so the variable and then `defaultValue` apply. Its help names
    /// the variable and the default.
    init(long name: String, duration help: String, default defaultValue: Duration) {
        self.init(
            name: .customLong(name),
            help: ArgumentHelp(
                "\(help.hasSuffix(".") ? String(help.dropLast()) : help) "
                    + "\(Setting.help(name, default: DurationText.format(defaultValue)))."),
            transform: DurationArgument.init(parsing:))
    }
}
