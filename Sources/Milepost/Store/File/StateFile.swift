import Foundation
import Glibc
import MilepostSystem

/// `state.json`: the stored state as pretty-printed JSON, replaced atomically.
struct StateFile {
    let path: String
    /// The directory holding it, fsynced after each replacement.
    let directory: String

    /// The prefix of the temp files of `write(_:)`; leftovers of a crashed writer start with it.
    static let tempPrefix = "state.json.tmp."

    // MARK: - Reading

    /// The stored state; nil when the file does not exist.
    /// - throws: `StoreError.unreadableState` when it exists but cannot be read or decoded, or has
    ///   a format this version does not know.
    func read() throws -> StoredState? {
        let bytes: [UInt8]
        do throws(FileCallError) {
            guard let descriptor = try FileCalls.openIfExists(path, O_RDONLY | O_CLOEXEC) else { return nil }
            defer { FileCalls.close(descriptor) }
            bytes = try FileCalls.readToEnd(descriptor, path)
        } catch {
            throw unreadable(error.reason)
        }
        guard !bytes.isEmpty else { throw unreadable("the file is empty") }
        let data = Data(bytes)
        let decoder = JSONDecoder()
        // One parse when the file is good (this is the pre-start path); the probe runs only on a
        // failure, so that a newer format is named as such rather than by the field it broke.
        do {
            let state = try decoder.decode(StoredState.self, from: data)
            try checkFormat(state.format)
            return state
        } catch let error as DecodingError {
            if let format = try? decoder.decode(FormatProbe.self, from: data).format { try checkFormat(format) }
            throw unreadable(error.summary)
        }
    }

    private func checkFormat(_ format: Int) throws(StoreError) {
        guard (1...StoredState.currentFormat).contains(format) else {
            throw unreadable(
                "format \(format) is not one this version of Milepost knows "
                    + "(it reads format 1 to \(StoredState.currentFormat)); upgrade Milepost")
        }
    }

    private func unreadable(_ reason: String) -> StoreError {
        .unreadableState(location: path, reason: reason)
    }

    /// Just the `format` field, read when the whole state does not decode.
    private struct FormatProbe: Decodable {
        var format: Int
    }

    // MARK: - Writing

    /// Replaces the file atomically: a temp file in the same directory, written in full and
    /// fsynced, renamed over the file, then the directory fsynced.
    func write(_ state: StoredState) throws(FileCallError) {
        let bytes = Self.encode(state)
        let tempPath = directory + "/" + Self.tempPrefix + "\(ProcessIdentity.pid).\(UInt32.random(in: .min ... .max))"
        let descriptor = try FileCalls.open(tempPath, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, mode: 0o600)
        do throws(FileCallError) {
            defer { FileCalls.close(descriptor) }
            try FileCalls.write(descriptor, bytes, tempPath)
            FailPoint.stateAfterTempWrite.reach()
            try FileCalls.sync(descriptor, tempPath)
            FailPoint.stateAfterFsync.reach()
            try FileCalls.rename(tempPath, to: path)
        } catch {
            try? FileCalls.remove(tempPath)
            throw error
        }
        FailPoint.stateAfterRename.reach()
        try FileCalls.syncDirectory(directory)
    }

    /// Removes the temp files left by writers that crashed before their rename.
    func removeStaleTempFiles() throws(FileCallError) {
        for name in try FileCalls.entries(directory) where name.hasPrefix(Self.tempPrefix) {
            try FileCalls.remove(directory + "/" + name)
        }
    }

    /// Pretty-printed JSON with sorted keys and a final newline, for people reading the file.
    static func encode(_ state: StoredState) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Encoding plain strings and numbers into JSON cannot fail.
        let data = try! encoder.encode(state)
        return Array(data) + [UInt8(ascii: "\n")]
    }
}
