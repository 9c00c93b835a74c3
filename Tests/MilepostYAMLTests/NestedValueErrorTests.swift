import MilepostYAML
import Testing

/// A type that checks plain values it decoded and points its error at one of them.
private struct Checked: Decodable {
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        let args = try container.decode([String].self, forKey: .args)
        if let index = args.firstIndex(of: "bad") {
            throw NestedValueError(at: [.key("args"), .index(index)], "an argument cannot be 'bad'")
        }
        let env = try container.decodeIfPresent([String: String].self, forKey: .env) ?? [:]
        if let name = env.keys.sorted().first(where: { env[$0] == "bad" }) {
            throw NestedValueError(at: [.key("env"), .key(name)], "the value of '\(name)' cannot be 'bad'")
        }
        if try container.decodeIfPresent(Bool.self, forKey: .nowhere) == true {
            throw NestedValueError(at: [.key("missing"), .index(3)], "points at nothing")
        }
    }

    enum Keys: String, CodingKey { case args, env, nowhere }
}

@Suite struct NestedValueErrorTests {
    @Test func anElementIsPointedAt() {
        #expect(decodeError(Checked.self, "args: [a, b, bad]\n")
            == YAMLError("'args[2]': an argument cannot be 'bad'", at: at(1, 14)))
    }

    @Test func aMappingValueIsPointedAt() {
        #expect(decodeError(Checked.self, "args: [a]\nenv:\n  A: ok\n  B: bad\n")
            == YAMLError("'env.B': the value of 'B' cannot be 'bad'", at: at(4, 6)))
    }

    /// Nested below the decoded root: the path continues the one of the type's own node.
    @Test func belowTheRootThePathContinues() {
        #expect(decodeError([String: Checked].self, "step:\n  args: [bad]\n")
            == YAMLError("'step.args[0]': an argument cannot be 'bad'", at: at(2, 10)))
    }

    /// A path that leads to no value: the error is the type's own, at its node.
    @Test func aPathToNothingIsAtTheTypesNode() {
        #expect(decodeError(Checked.self, "args: []\nnowhere: true\n")
            == YAMLError("points at nothing", at: at(1, 1)))
    }
}
