import Foundation
import TiTiKit

/// A scratch copy of the sample data directory (manifest and `dailys.json`), removed afterwards.
final class TiTiFixture: Sendable {
    static let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sample").path

    let directory: String

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("titi-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for name in ["milepost.yaml", "dailys.json"] {
            try FileManager.default.copyItem(atPath: Self.sample + "/" + name, toPath: directory + "/" + name)
        }
    }

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    var manifest: String { directory + "/milepost.yaml" }
    var dailyFile: DailyFile { DailyFile(path: directory + "/dailys.json") }
    var legacyDefaults: LegacyDefaults { LegacyDefaults(path: directory + "/com.example.titi.plist") }

    /// The app starting: Milepost's store in the data directory, the legacy defaults beside it.
    var launch: TiTiLaunch { TiTiLaunch(dataDirectory: directory, manifest: manifest, legacyDefaults: legacyDefaults) }

    func dailys() throws -> [Daily] { try dailyFile.load() }

    func dataBytes() throws -> Data { try Data(contentsOf: URL(fileURLWithPath: dailyFile.path)) }

    /// Writes the defaults file the hand-rolled code left, as `UserDefaults` writes it (an XML property list).
    func writeLegacyDefaults(_ values: [String: String]) throws {
        let data = try PropertyListSerialization.data(fromPropertyList: values, format: .xml, options: 0)
        try data.write(to: URL(fileURLWithPath: legacyDefaults.path))
    }
}
