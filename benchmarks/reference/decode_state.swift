// A static Swift program that decodes state.json with Foundation's JSONDecoder into the shape of
// Milepost's StoredState and prints its version: what a Swift pre-start that decodes the whole
// state with Foundation costs at least (docs/performance.md).
import Foundation

struct Completed: Decodable {
    var id: String
    var at: String
    var run: String
    var fingerprint: String
    var via: String?
}

struct State: Decodable {
    var format: Int
    var app: String?
    var version: String
    var completed: [Completed]
    var updated_at: String
}

let data = FileManager.default.contents(atPath: CommandLine.arguments[1])!
print(try JSONDecoder().decode(State.self, from: data).version)
