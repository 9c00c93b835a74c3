import ArgumentParser
import FoundationEssentials
import Milepost
import MilepostSystem

/// `--to` (env `MILEPOST_TO`): the version the application is moving to.
struct TargetOption: ParsableArguments {
    @Option(
        name: .customLong(OptionNames.to), help: ArgumentHelp("The version being moved to (env MILEPOST_TO).", valueName: "version"),
        transform: Version.argument)
    var to: Version?

    /// The target, from the flag or the environment; nil when neither gives one.
    func resolved() throws -> Version? { try Self.resolve(to) }

    /// The flag's version, else `MILEPOST_TO`'s; nil when neither gives one.
    static func resolve(_ to: Version?) throws -> Version? {
        if let to { return to }
        guard let text = ProcessEnvironment.value("MILEPOST_TO") else { return nil }
        do {
            return try Version(parsing: text)
        } catch {
            throw ValidationError("MILEPOST_TO: \(error)")
        }
    }

    func required() throws -> Version {
        guard let target = try resolved() else { throw ValidationError("give the target version with --to VERSION or MILEPOST_TO") }
        return target
    }
}
