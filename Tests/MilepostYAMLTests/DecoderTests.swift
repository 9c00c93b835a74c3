import MilepostYAML
import Testing

/// Decodes `T` from `text`'s root, returning the error (recording an issue if decoding succeeds).
func decodeError<T: Decodable>(_ type: T.Type, _ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> YAMLError? {
    do {
        _ = try YAMLNodeDecoder().decode(type, from: parse(text, sourceLocation: sourceLocation))
        Issue.record("decoding succeeded", sourceLocation: sourceLocation)
        return nil
    } catch {
        return error
    }
}

func decode<T: Decodable>(_ type: T.Type, _ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> T {
    try YAMLNodeDecoder().decode(type, from: parse(text, sourceLocation: sourceLocation))
}

struct Params: Decodable, Equatable {
    var table: String
    var batch: Int
}

struct Step: Decodable, Equatable {
    var name: String
    var id: String?
    var with: Params?
    var timeout: Duration?
    var retries: Int?
    var idempotent: Bool?
}

struct Manifest: Decodable, Equatable {
    var app: String?
    var baseline: String?
    var migrations: [String: [Step]]
}

/// A type that validates its own text, as a version would.
struct Version: Decodable, Equatable {
    var text: String
    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        text = try container.decode(String.self)
        guard !text.isEmpty, text.allSatisfy({ $0.isNumber || $0 == "." }) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "invalid version '\(text)'")
        }
    }
}

enum Mode: String, Decodable { case fast, safe }

@Suite struct DecoderTests {
    @Test func decodesAManifest() throws {
        let manifest = try decode(Manifest.self, """
            app: titi
            baseline: 2.0
            migrations:
              2.1:
                - name: removeEmptyDailys
              2.10:
                - name: reindexSearch
                  id: reindex-dailys
                  with: {table: dailys, batch: 500}
                  timeout: 5m
                  retries: 0x2
                  idempotent: true
            """)
        #expect(manifest.app == "titi")
        #expect(manifest.baseline == "2.0")
        #expect(manifest.migrations.keys.sorted() == ["2.1", "2.10"])
        #expect(manifest.migrations["2.1"] == [Step(name: "removeEmptyDailys")])
        #expect(manifest.migrations["2.10"] == [Step(
            name: "reindexSearch", id: "reindex-dailys", with: Params(table: "dailys", batch: 500),
            timeout: .seconds(300), retries: 2, idempotent: true)])
    }

    @Test func stringsDecodeFromAnyScalarText() throws {
        #expect(try decode([String: String].self, "PORT: 8080\nversion: 2.10\nflag: no\nq: '7'\nb: true\n")
            == ["PORT": "8080", "version": "2.10", "flag": "no", "q": "7", "b": "true"])
    }

    @Test func numbersAndBooleans() throws {
        struct Values: Decodable, Equatable {
            var small: UInt8, negative: Int16, big: UInt64, ratio: Double, whole: Double, single: Float, on: Bool
        }
        let values = try decode(Values.self, """
            small: 255
            negative: -16
            big: 18446744073709551615
            ratio: 2.5
            whole: 3
            single: .inf
            on: False
            """)
        #expect(values == Values(small: 255, negative: -16, big: .max, ratio: 2.5, whole: 3, single: .infinity, on: false))
    }

    @Test func nilsAndOptionals() throws {
        struct Optionals: Decodable, Equatable { var a: Int?, b: String?, c: [Int?] }
        #expect(try decode(Optionals.self, "a: ~\nc: [1, null, ]") == Optionals(a: nil, b: nil, c: [1, nil]))
        #expect(try decode(Optionals.self, "b: ''\nc: []") == Optionals(a: nil, b: "", c: []))
    }

    @Test func absentDocumentIsAnEmptyMapping() throws {
        struct Loose: Decodable, Equatable { var app: String? }
        #expect(try YAMLNodeDecoder().decode(Loose.self, from: nil) == Loose(app: nil))
        #expect(try YAMLNodeDecoder().decode([String: Int].self, from: nil) == [:])
    }

    @Test func durations() throws {
        #expect(try decode([Duration].self, "[250ms, 30s, 5m, 1h, '2s']")
            == [.milliseconds(250), .seconds(30), .seconds(300), .seconds(3600), .seconds(2)])
    }

    @Test func aliasedMappingsDecodeAtEachUse() throws {
        let steps = try decode([String: Params].self, "a: &p {table: t, batch: 1}\nb: *p\n")
        #expect(steps["b"] == Params(table: "t", batch: 1))
    }

    @Test func enumsAndCustomTypes() throws {
        struct Config: Decodable { var mode: Mode; var version: Version }
        let config = try decode(Config.self, "mode: safe\nversion: 2.10\n")
        #expect(config.mode == .safe)
        #expect(config.version.text == "2.10")
    }

    @Test func decoderAPIOnNodesBelowTheRoot() throws {
        let root = try #require(parse("steps:\n  - with: {table: t, batch: 2}\n"))
        let with = try #require(root["steps"]?.elements.first?["with"])
        #expect(try YAMLNodeDecoder().decode(Params.self, from: with) == Params(table: "t", batch: 2))
    }
}

extension Step {
    init(name: String) {
        self.init(name: name, id: nil, with: nil, timeout: nil, retries: nil, idempotent: nil)
    }
}
