import ArgumentParser
import MilepostSystem

/// A setting given by a flag, else by an environment variable. An empty value is a usage error
/// (exit 64) wherever it comes from: `--store ""` or `MILEPOST_STORE=` must never mean the
/// current directory or the filesystem root.
enum Setting {
    /// The flag's value, else the variable's; nil when neither is given.
    /// - throws: `ValidationError` when the value given is empty.
    static func value(flag: String?, named name: String, environment variable: String) throws -> String? {
        if let flag {
            guard !flag.isEmpty else { throw ValidationError("--\(name) must not be empty") }
            return flag
        }
        guard let value = ProcessEnvironment.value(variable) else { return nil }
        guard !value.isEmpty else { throw ValidationError("\(variable) is set but empty; unset it or give a value") }
        return value
    }
}
