import Foundation

/// The JSON file holding every `Daily`, as an array sorted by date.
public struct DailyFile: Sendable {
    public let path: String

    public init(path: String) { self.path = path }

    /// `file` (default `dailys.json`) resolved against `directory` unless it is absolute.
    public init(_ file: String?, relativeTo directory: String) {
        let file = file ?? "dailys.json"
        self.init(path: file.hasPrefix("/") ? file : directory + "/" + file)
    }

    public func load() throws -> [Daily] {
        try JSONDecoder().decode([Daily].self, from: Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// Replaces the file (written to a temporary file, then renamed over it).
    public func save(_ dailys: [Daily]) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        var data = try encoder.encode(dailys)
        data.append(UInt8(ascii: "\n"))
        try data.write(to: URL(fileURLWithPath: path), options: .atomic)
    }
}
