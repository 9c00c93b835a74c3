import Foundation
import Milepost

/// The defaults file where TiTi's hand-rolled upgrade code kept `lastUpdateVersion` before Milepost.
///
/// That code called `UserDefaults(suiteName: "com.example.titi").set(version, forKey: "lastUpdateVersion")`.
/// Foundation persists such a suite as a property list: on Linux `$XDG_CONFIG_HOME/SUITE.plist`
/// (default `~/.config/SUITE.plist`), on macOS `~/Library/Preferences/SUITE.plist`. It is read here
/// from the file, never written, so that the key keeps meaning what the old code wrote.
public struct LegacyDefaults: Sendable {
    public static let key = "lastUpdateVersion"
    public static let suite = "com.example.titi"

    /// The property-list file.
    public let path: String

    public init(path: String) { self.path = path }

    /// Where Foundation keeps the `com.example.titi` suite on this machine (env `TITI_DEFAULTS` overrides it).
    public static func standard() -> LegacyDefaults {
        let environment = ProcessInfo.processInfo.environment
        if let path = environment["TITI_DEFAULTS"] { return LegacyDefaults(path: path) }
        #if os(macOS)
        let directory = NSHomeDirectory() + "/Library/Preferences"
        #else
        let directory = environment["XDG_CONFIG_HOME"] ?? NSHomeDirectory() + "/.config"
        #endif
        return LegacyDefaults(path: directory + "/" + suite + ".plist")
    }

    /// The version the old code last upgraded to; nil when the file or the key is missing.
    /// - throws: `StoreError.unreadableState` when the file exists but is not a property list.
    public func lastUpdateVersion() throws -> String? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        do {
            let plist = try PropertyListSerialization.propertyList(from: data, format: nil)
            return (plist as? [String: Any])?[Self.key] as? String
        } catch {
            throw StoreError.unreadableState(location: path, reason: "the legacy defaults are not a property list: \(error)")
        }
    }

    /// `state`, or when Milepost has stored nothing yet, a state at the legacy `lastUpdateVersion`.
    func fallback(for state: StoredState?) throws -> StoredState? {
        if let state { return state }
        guard let text = try lastUpdateVersion() else { return nil }
        let version: Version
        do {
            version = try Version(parsing: text)
        } catch {
            throw StoreError.unreadableState(location: path, reason: "the legacy lastUpdateVersion is not a version: \(error)")
        }
        let modified = (try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date) ?? Date()
        let updated = Timestamp(millisecondsSince1970: Int64((modified.timeIntervalSince1970 * 1_000).rounded(.down)))
        return StoredState(app: "titi", version: version, updatedAt: updated)
    }
}
