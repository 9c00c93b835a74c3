import MilepostYAML
import Testing

/// `T` decoded through its own `init(from:)` on the decoder handed over: for an array or a
/// dictionary, the route `Decodable` takes, which the decoder otherwise bypasses for them.
struct ThroughInit<T: Decodable & Equatable>: Decodable, Equatable {
    var value: T
    init(from decoder: any Decoder) throws { value = try T(from: decoder) }
}

/// Arrays and string-keyed dictionaries are read straight from the node; the values, coding paths
/// and errors must be those of their own `init(from:)`.
@Suite struct CollectionDecodingTests {
    /// Decodes `text` as `T` both ways; the results (values or errors) must be the same.
    func bothWays<T: Decodable & Equatable>(
        _ type: T.Type, _ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) -> Result<T, YAMLError>? {
        guard let node = parse(text, sourceLocation: sourceLocation) else { return nil }
        let direct = Result { () throws(YAMLError) in try YAMLNodeDecoder().decode(T.self, from: node) }
        let throughInit = Result { () throws(YAMLError) in try YAMLNodeDecoder().decode(ThroughInit<T>.self, from: node).value }
        switch (direct, throughInit) {
        case (.success(let a), .success(let b)):
            #expect(a == b, sourceLocation: sourceLocation)
        case (.failure(let a), .failure(let b)):
            #expect(a == b, sourceLocation: sourceLocation)
        default:
            Issue.record("direct: \(direct), through init(from:): \(throughInit)", sourceLocation: sourceLocation)
        }
        return direct
    }

    @Test func valuesAreTheSame() throws {
        #expect(try bothWays([String].self, "[a, 'b', 3]")?.get() == ["a", "b", "3"])
        #expect(try bothWays([[Int]].self, "[[1, 2], [], [3]]")?.get() == [[1, 2], [], [3]])
        #expect(try bothWays([String: Int].self, "{a: 1, b: 2}")?.get() == ["a": 1, "b": 2])
        #expect(try bothWays([String: [String]].self, "{a: [x], b: []}")?.get() == ["a": ["x"], "b": []])
        #expect(try bothWays([String: String].self, "~")?.get() == [:])
        #expect(try bothWays([String: String].self, "{}")?.get() == [:])
        #expect(try bothWays([Params].self, "[{table: t, batch: 5}]")?.get() == [Params(table: "t", batch: 5)])
    }

    @Test func errorsAreTheSame() {
        let element = bothWays([Int].self, "[1, x]")
        #expect(throws: YAMLError.self) { try element?.get() }
        if case .failure(let error)? = element {
            #expect(error.message == "'[1]': expected an integer, found the string \"x\"")
            #expect(error.location == at(1, 5))
        }
        let value = bothWays([String: [Int]].self, "a: [1]\nb: [2, no]")
        if case .failure(let error)? = value {
            #expect(error.message == "'b[1]': expected an integer, found the string \"no\"")
            #expect(error.location == at(2, 8))
        } else {
            Issue.record("decoding succeeded")
        }
        _ = bothWays([String].self, "a: b")
        _ = bothWays([String].self, "~")
        _ = bothWays([String: String].self, "[a]")
        _ = bothWays([String: String].self, "a: ~")
        _ = bothWays([Params].self, "[{table: t, bach: 5}]")
    }
}
