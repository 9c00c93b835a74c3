import MilepostYAML
import Testing

@Suite struct DecoderErrorTests {
    @Test func wrongScalarNamesPathAndTypes() {
        let error = decodeError(Step.self, "name: x\nwith:\n  table: t\n  batch: abc\n")
        #expect(error == YAMLError(#"'with.batch': expected an integer, found the string "abc""#, at: at(4, 10)))
    }

    @Test func quotedNumberIsNotAnInteger() {
        let error = decodeError(Step.self, "name: x\nwith: {table: t, batch: \"500\"}\n")
        #expect(error == YAMLError(#"'with.batch': expected an integer, found the quoted string "500""#, at: at(2, 25)))
    }

    @Test(arguments: [
        ("retries: 1.5", #"'retries': expected an integer, found the number 1.5"#, at(2, 10)),
        ("with: {table: ~, batch: 1}", "'with.table': expected a string, found null", at(2, 15)),
        ("retries: [1]", "'retries': expected an integer, found a sequence", at(2, 10)),
        ("idempotent: yes", #"'idempotent': expected a boolean, found the string "yes""#, at(2, 13)),
        ("idempotent: 'true'", #"'idempotent': expected a boolean, found the quoted string "true""#, at(2, 13)),
        ("timeout: 5 minutes", #"'timeout': expected a duration (250ms, 30s, 1h30m, 1.5h), found the string "5 minutes""#, at(2, 10)),
        ("timeout: 5", "'timeout': expected a duration (250ms, 30s, 1h30m, 1.5h), found the integer 5", at(2, 10)),
        ("with: [a]", "'with': expected a mapping, found a sequence", at(2, 7)),
        ("id: {a: b}", "'id': expected a string, found a mapping", at(2, 5)),
        ("retries: |\n  5", #"'retries': expected an integer, found the block string "5\n""#, at(2, 10)),
    ])
    func mismatches(line: String, message: String, location: MilepostYAML.SourceLocation) {
        let error = decodeError(Step.self, "name: x\n\(line)\n")
        #expect(error == YAMLError(message, at: location))
    }

    @Test func integerRanges() {
        #expect(decodeError([String: UInt8].self, "v: 256") == YAMLError(
            "'v': expected an integer in 0...255 (UInt8), found the integer 256", at: at(1, 4)))
        #expect(decodeError([String: UInt].self, "v: -1") == YAMLError(
            "'v': expected an integer in 0...18446744073709551615 (UInt), found the integer -1", at: at(1, 4)))
        #expect(decodeError([String: Int].self, "v: 99999999999999999999") == YAMLError(
            "'v': expected an integer in -9223372036854775808...9223372036854775807 (Int), found the integer 99999999999999999999",
            at: at(1, 4)))
        #expect(decodeError([String: Float].self, "v: 1e300") == YAMLError(
            "'v': expected a number within the range of Float, found the number 1e300", at: at(1, 4)))
    }

    @Test func missingKeyIsLocatedAtTheMapping() {
        #expect(decodeError(Step.self, "id: x\n") == YAMLError("missing key 'name', expected a string", at: at(1, 1)))
        #expect(decodeError(Step.self, "name: x\nwith:\n  batch: 5\n") == YAMLError(
            "'with': missing key 'table', expected a string", at: at(3, 3)))
        #expect(decodeError(Params.self, "") == YAMLError("missing key 'table', expected a string", at: nil))
    }

    @Test func sequenceElementsArePathed() {
        #expect(decodeError(Manifest.self, "migrations:\n  2.10:\n    - name: a\n    - name: [b]\n") == YAMLError(
            "'migrations.2.10[1].name': expected a string, found a sequence", at: at(4, 13)))
        #expect(decodeError([Int].self, "[1, 2, x]") == YAMLError(#"'[2]': expected an integer, found the string "x""#, at: at(1, 8)))
    }

    @Test func runningOutOfElements() {
        struct Pair: Decodable {
            init(from decoder: any Decoder) throws {
                var container = try decoder.unkeyedContainer()
                _ = try container.decode(Int.self)
                _ = try container.decode(Int.self)
            }
        }
        #expect(decodeError([String: Pair].self, "p: [1]") == YAMLError(
            "'p[1]': the sequence has no more elements, expected an integer", at: at(1, 4)))
    }

    @Test func unknownKeySuggestsTheNearestRequestedKey() {
        let error = decodeError(Step.self, "name: x\nwith: {table: t, batch: 1, bach: 2}\n")
        #expect(error == YAMLError(
            "'with': unknown parameter 'bach'", at: at(2, 28), notes: [YAMLError.Note("did you mean 'batch'?")]))
    }

    @Test func misspelledRequiredKeyIsReportedAsUnknown() {
        let error = decodeError(Params.self, "table: t\nbach: 2\n")
        #expect(error == YAMLError("unknown parameter 'bach'", at: at(2, 1), notes: [YAMLError.Note("did you mean 'batch'?")]))
    }

    @Test func unknownKeyWithoutNearMatch() {
        #expect(decodeError(Step.self, "name: x\nschedule: daily\n") == YAMLError("unknown parameter 'schedule'", at: at(2, 1)))
    }

    @Test func firstUnknownKeyInSourceOrder() {
        let error = decodeError(Step.self, "nme: x\nname: y\nretry: 1\n")
        #expect(error == YAMLError("unknown parameter 'nme'", at: at(1, 1), notes: [YAMLError.Note("did you mean 'name'?")]))
    }

    @Test func typeOwnDataCorruptedErrorIsLocated() {
        struct Config: Decodable { var baseline: Version }
        #expect(decodeError(Config.self, "baseline: two\n") == YAMLError("'baseline': invalid version 'two'", at: at(1, 11)))
    }

    @Test func rawValueEnumErrorIsLocated() {
        struct Config: Decodable { var mode: Mode }
        #expect(decodeError(Config.self, "mode: turbo\n") == YAMLError(
            "'mode': Cannot initialize Mode from invalid String value turbo", at: at(1, 7)))
    }
}
