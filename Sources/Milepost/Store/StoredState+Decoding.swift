import FoundationEssentials
import MilepostSystem

extension StoredState {
    /// The state as compact JSON with sorted keys: a row of the SQLite and MariaDB stores (the file
    /// store pretty-prints it for people reading `state.json`).
    package var json: [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding plain strings and numbers into JSON cannot fail.
        return Array(try! encoder.encode(self))
    }

    /// Decodes a state from its JSON and checks its format: the one decoding of every store.
    /// One parse when the JSON is good (the pre-start path reads through here); only on a failure
    /// is the `format` field probed, so that a newer format is named as such rather than by the
    /// field it broke.
    /// - throws: `StoreError.unreadableState` naming `location`, with `.unknownFormat` or `.malformed`.
    package static func decode(json bytes: [UInt8], location: String) throws(StoreError) -> StoredState {
        let data = Data(bytes)
        let decoder = JSONDecoder()
        let state: StoredState
        do {
            state = try decoder.decode(StoredState.self, from: data)
        } catch {
            if let format = try? decoder.decode(FormatProbe.self, from: data).format {
                try checkFormat(format, location: location)
            }
            throw .unreadableState(location: location, reason: .malformed(DecodingError.summary(of: error)))
        }
        try checkFormat(state.format, location: location)
        return state
    }

    /// Refuses a state of a format this version does not know, wherever it was read (`state.json`,
    /// a commit of `state.log`, a store's row).
    /// - throws: `StoreError.unreadableState` naming `location`, with `.unknownFormat`.
    static func checkFormat(_ format: Int, location: String) throws(StoreError) {
        guard (1...currentFormat).contains(format) else {
            throw .unreadableState(location: location, reason: .unknownFormat(format))
        }
    }

    /// Just the `format` field, read when the whole state does not decode.
    private struct FormatProbe: Decodable {
        var format: Int
    }
}
