import ArgumentParser
import MilepostSystem

/// A setting given by a flag, else by an environment variable. An empty value is a usage error
/// (exit 64) wherever it comes from: `--store ""` or `MILEPOST_STORE=` must never mean the
/// current directory or the filesystem root.
///
/// Every option of `run` has a variable, named after the option by `variable(_:)`:
/// `--lock-timeout` is `MILEPOST_LOCK_TIMEOUT`. The flag wins; a variable that is empty or does not
/// parse is a usage error naming the variable (`MILEPOST_LOCK_TIMEOUT: a bare number has no unit: …`).
/// An option whose default would hide whether it was given is declared optional and resolved as
/// flag, else variable, else default:
///
/// ```swift
/// @Option(name: .customLong(OptionNames.lockTimeout), duration: "How long to wait.", default: .seconds(60))
/// var lockTimeout: DurationArgument?
/// let timeout = try Setting.value(lockTimeout, named: OptionNames.lockTimeout)?.duration ?? .seconds(60)
/// ```
enum Setting {
    // MARK: - Names

    /// The variable of the option `--name`: `MILEPOST_` and the name in upper case, with
    /// underscores for dashes (`lock-timeout` → `MILEPOST_LOCK_TIMEOUT`). Option names are ASCII,
    /// so bytes are mapped: `uppercased()`'s Unicode case mapping cost the no-op run 0.13 M
    /// instructions for its fourteen names (docs/performance.md).
    static func variable(_ name: String) -> String {
        let lowerA = UInt8(ascii: "a"), lowerZ = UInt8(ascii: "z"), dash = UInt8(ascii: "-")
        let upper = name.utf8.map { byte in
            (lowerA...lowerZ).contains(byte) ? byte - (lowerA - UInt8(ascii: "A")) : byte == dash ? UInt8(ascii: "_") : byte
        }
        return "MILEPOST_" + String(decoding: upper, as: UTF8.self)
    }

    /// The variables of `run`'s options, sorted, comma-separated (the root command's help and the man
    /// page list them). `PreStart` knows every option of `run`, which `PreStartTests` checks.
    static var runVariables: String {
        PreStart.names.map(variable).sorted()
            .joined(separator: ", ")
    }

    /// `(env MILEPOST_NAME)`, or `(env MILEPOST_NAME; default: D)`, for the option's help.
    static func help(_ name: String, default defaultValue: String? = nil) -> String {
        "(env \(variable(name))\(defaultValue.map { "; default: \($0)" } ?? ""))"
    }

    // MARK: - Resolving

    /// The flag's value, else the variable's; nil when neither is given.
    /// - throws: `ValidationError` when the value given is empty.
    static func value(flag: String?, named name: String, environment variable: String) throws -> String? {
        if let flag {
            guard !flag.isEmpty else { throw ValidationError("--\(name) must not be empty") }
            return flag
        }
        return try text(of: variable)
    }

    /// The flag's value, else the value `Setting.variable(name)` gives; nil when neither is given.
    /// - throws: `ValidationError` naming the variable when it is empty or does not parse.
    static func value<Value: SettingValue>(_ flag: Value?, named name: String) throws -> Value? {
        if let flag { return flag }
        let variable = variable(name)
        guard let text = try text(of: variable) else { return nil }
        do {
            return try Value(setting: text)
        } catch let error as ValidationError {
            throw ValidationError("\(variable): \(error.message)")
        }
    }

    /// True when the flag is given, else what `Setting.variable(name)` says: `1`, `true`, `yes`
    /// or `0`, `false`, `no` (any case); false when neither is given.
    /// - throws: `ValidationError` naming the variable when it is empty or not one of those.
    static func isOn(_ flag: Bool, named name: String) throws -> Bool {
        if flag { return true }
        let variable = variable(name)
        guard let text = try text(of: variable) else { return false }
        guard let value = boolean(text) else {
            throw ValidationError("\(variable): '\(text)' is not a boolean: write 1, true or yes, or 0, false or no")
        }
        return value
    }

    /// `text` as a boolean setting: `1`, `true`, `yes` or `0`, `false`, `no` (any case); nil otherwise.
    static func boolean(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "1", "true", "yes": true
        case "0", "false", "no": false
        default: nil
        }
    }

    /// The variable's text; nil when it is unset.
    /// - throws: `ValidationError` when it is set but empty.
    private static func text(of variable: String) throws -> String? {
        guard let value = ProcessEnvironment.value(variable) else { return nil }
        guard !value.isEmpty else { throw ValidationError("\(variable) is set but empty; unset it or give a value") }
        return value
    }
}

/// A value an option's environment variable may give (`Setting.value(_:named:)`).
protocol SettingValue {
    /// Reads a variable's text as the option's flag would be read.
    /// - throws: `ValidationError` saying why `text` is not a value.
    init(setting text: String) throws
}

extension SettingValue where Self: ExpressibleByArgument {
    init(setting text: String) throws {
        guard let value = Self(argument: text) else {
            let values = Self.allValueStrings
            throw ValidationError(
                values.isEmpty ? "'\(text)' is not valid" : "'\(text)' is not one of \(values.joined(separator: ", "))")
        }
        self = value
    }
}

extension String: SettingValue {
    init(setting text: String) { self = text }
}
