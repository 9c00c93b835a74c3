import Foundation
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// The JSON file holding every `Daily`, as an array sorted by date.
public struct DailyFile: Sendable {
    public let path: String

    public init(path: String) { self.path = path }

    /// `dailys.json` in the app's data directory `directory`.
    public init(inDataDirectory directory: String) {
        self.init(path: directory + "/dailys.json")
    }

    /// The file `titi-migrate` works on: `dailys.json` in the data directory `TITI_DATA` names,
    /// else in the working directory (where ops run it, beside the store `.milepost`).
    public static func ofCommandLine() -> DailyFile {
        DailyFile(inDataDirectory: ProcessInfo.processInfo.environment["TITI_DATA"] ?? FileManager.default.currentDirectoryPath)
    }

    public func load() throws -> [Daily] {
        try JSONDecoder().decode([Daily].self, from: Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// Replaces the file durably: written to a temporary file beside it and flushed to disk, then
    /// renamed over it and the directory flushed, so after a crash the file is the old or the new
    /// one (a step commits its cursor only after this returns).
    public func save(_ dailys: [Daily]) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        var data = try encoder.encode(dailys)
        data.append(UInt8(ascii: "\n"))
        let temporary = path + ".saving"
        guard FileManager.default.createFile(atPath: temporary, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: temporary])
        }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: temporary))
        try handle.write(contentsOf: data)
        try handle.synchronize()
        try handle.close()
        guard rename(temporary, path) == 0 else {
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        let directory = open((path as NSString).deletingLastPathComponent, O_RDONLY)
        guard directory >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(directory) }
        guard fsync(directory) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }
}
