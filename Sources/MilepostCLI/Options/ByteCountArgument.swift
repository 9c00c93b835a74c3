import ArgumentParser

/// A size flag value: a whole number of bytes, 0 or more (`--max-manifest-size`).
struct ByteCountArgument: ExpressibleByArgument {
    var bytes: Int

    init?(argument: String) {
        guard let bytes = Int(argument), bytes >= 0 else { return nil }
        self.bytes = bytes
    }

    init(_ bytes: Int) { self.bytes = bytes }

    var defaultValueDescription: String { "\(bytes)" }
}

extension ByteCountArgument: SettingValue {
    init(setting text: String) throws {
        guard let value = Self(argument: text) else { throw ValidationError("'\(text)' is not a whole number of bytes") }
        self = value
    }
}
