import Glibc
package import SystemPackage

/// Paths are bytes on Linux; a Swift `String` is Unicode. The text of a path in Milepost is its
/// bytes decoded as UTF-8 where they are valid, and every byte that is not part of valid UTF-8 kept
/// as one private-use scalar, U+10FF80 to U+10FFFF for bytes 0x80 to 0xFF. A scalar of that range
/// written literally in a valid name is kept as its four bytes the same way. So `filePath(_:)`
/// gives back exactly the bytes `string(_:)` was given, two different paths never share a text, and
/// `readable(_:)` shows such a byte as `\xFF`.
///
/// The command line's arguments and the environment (`ProcessEnvironment`) are read as such
/// texts (`arguments()`); the file calls and `Spawn` turn a text back into bytes.
/// (`String(cString:)`, `CommandLine.arguments` and `ProcessInfo` replace a bad byte with U+FFFD:
/// an existing file is then "not found", and two store directories become one.)
package enum PathText {
    /// The first scalar of the range that stands for bytes: U+10FF00 + byte.
    private static let base: UInt32 = 0x10_FF00

    /// The directory of `path`: `.` for a bare name, `/` for a file at the root.
    package static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The text of `path`.
    package static func string(_ path: FilePath) -> String {
        path.withPlatformString { string(cString: $0) }
    }

    /// The text of a path's bytes.
    package static func string(bytes: some Collection<UInt8>) -> String {
        let bytes = Array(bytes)
        var scalars = String.UnicodeScalarView()
        var index = 0
        while index < bytes.count {
            var iterator = bytes[index...].makeIterator()
            var parser = Unicode.UTF8.ForwardParser()
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                let scalar = Unicode.UTF8.decode(encoded)
                if isByte(scalar) {
                    scalars.append(contentsOf: encoded.map(Self.scalar(standingFor:)))
                } else {
                    scalars.append(scalar)
                }
                index += encoded.count
            case .error(let length):
                scalars.append(contentsOf: bytes[index..<index + length].map(Self.scalar(standingFor:)))
                index += length
            case .emptyInput:
                index = bytes.count
            }
        }
        return String(scalars)
    }

    /// The bytes `text` stands for: UTF-8, except that each scalar of U+10FF80…U+10FFFF is its one byte.
    package static func bytes(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if isByte(scalar) {
                bytes.append(UInt8(scalar.value - base))
            } else {
                bytes.append(contentsOf: String(scalar).utf8)
            }
        }
        return bytes
    }

    /// The path `text` stands for.
    package static func filePath(_ text: String) -> FilePath {
        let characters = bytes(text).map { CChar(bitPattern: $0) } + [0]
        return characters.withUnsafeBufferPointer { FilePath(platformString: $0.baseAddress!) }
    }

    /// `text` for a message: each byte that is not UTF-8 as `\xFF`.
    package static func readable(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isByte) else { return text }
        var shown = ""
        for scalar in text.unicodeScalars {
            if isByte(scalar) {
                let hex = String(scalar.value - base, radix: 16, uppercase: true)
                shown += "\\x" + hex
            } else {
                shown.unicodeScalars.append(scalar)
            }
        }
        return shown
    }

    /// True for a scalar that stands for a byte (U+10FF80…U+10FFFF).
    package static func isByte(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value >= base + 0x80 && scalar.value <= base + 0xFF
    }

    /// The process's arguments after the program name, as texts: from `CommandLine.unsafeArgv`, or,
    /// when the Swift runtime has none (`argc` 0: a library preloaded with `LD_PRELOAD`, such as
    /// libfaketime, keeps them from it), from the kernel's copy, `/proc/self/cmdline`. An `execve`
    /// with an empty argv has no arguments either way.
    package static func arguments() -> [String] {
        guard CommandLine.argc < 1 else {
            return (1..<Int(CommandLine.argc)).compactMap { index in
                CommandLine.unsafeArgv[index].map { string(cString: $0) }
            }
        }
        // Each argument ends with a NUL; no arguments at all is an empty file (or one NUL, the empty
        // program name a kernel since 5.18 gives an empty argv).
        let bytes = (try? RegularFileReader.contents(path: "/proc/self/cmdline", maxBytes: 1 << 24)) ?? []
        var fields = bytes.split(separator: 0, omittingEmptySubsequences: false)
        if bytes.last == 0 { fields.removeLast() }
        return fields.dropFirst().map { string(bytes: $0) }
    }

    /// The text of a C string's bytes.
    package static func string(cString: UnsafePointer<CChar>) -> String {
        string(bytes: UnsafeBufferPointer(start: cString, count: strlen(cString)).lazy.map { UInt8(bitPattern: $0) })
    }

    private static func scalar(standingFor byte: UInt8) -> Unicode.Scalar {
        Unicode.Scalar(base + UInt32(byte))!
    }
}
