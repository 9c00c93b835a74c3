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

extension Option where Value == DurationArgument {
    /// A duration option: `help` with its default appended as ArgumentParser does for other types,
    /// and a bad value rejected with `DurationText`'s reason rather than a bare "invalid".
    init(wrappedValue: DurationArgument, name: NameSpecification = .long, duration help: String) {
        self.init(
            wrappedValue: wrappedValue, name: name, help: ArgumentHelp("\(help) (default: \(DurationText.format(wrappedValue.duration)))"),
            transform: DurationArgument.init(parsing:))
    }
}
