import Foundation
import Milepost
import Testing

@Suite struct VersionTests {
    @Test(arguments: [
        ("2.10", "2.9"), ("2.1.1", "2.1"), ("3.0", "3.0-rc.1"), ("99999999999999999999999", "9"),
        ("1.0.0-rc.1", "1.0.0-beta.11"), ("1.0.0-beta.11", "1.0.0-beta.2"), ("1.0.0-beta", "1.0.0-alpha.1"),
        ("1.0.0-alpha.1", "1.0.0-alpha"), ("1.0.0-alpha.beta", "1.0.0-alpha.1"), ("20261121.4", "20261121.3"),
        ("v2.10.3", "2.10.2"), ("2.1-rc.1", "2.0.9"), ("1.0.0-1a", "1.0.0-2"),
        // Around the 18 digits `<` compares as integers, and past them as digit strings.
        ("1000000000000000000", "999999999999999999"), ("1.1000000000000000000", "1.999999999999999999.9"),
        ("2.99999999999999999999", "2.99999999999999999998"), ("999999999999999999.1", "999999999999999999"),
        ("1.18446744073709551616", "1.18446744073709551615"),
    ])
    func ordersNumerically(greater: String, lesser: String) throws {
        let (high, low) = (try Version(parsing: greater), try Version(parsing: lesser))
        #expect(high > low)
        #expect(low < high)
        #expect(high != low)
    }

    @Test(arguments: [
        ("2.1", "2.1.0"), ("2.1", "2.1.0.0"), ("2.01", "2.1"), ("v2.1", "2.1"), ("V2.1", "2.1"),
        ("1.0+build.5", "1.0+other"), ("3.0-rc.01", "3.0.0-rc.1"), ("0", "0.0"), ("007", "7"),
    ])
    func treatsEquivalentSpellingsAsEqual(left: String, right: String) throws {
        let (a, b) = (try Version(parsing: left), try Version(parsing: right))
        #expect(a == b)
        #expect(!(a < b) && !(b < a))
        #expect(a.hashValue == b.hashValue)
        #expect(a.text == left)
    }

    @Test(arguments: ["", "2..1", "2.x", "1.0 ", "-1", "v", "1.", ".1", "1.0-", "1.0-rc..1", "1.0+", "1,0", "２.1", "1.0-r c"])
    func rejectsInvalidText(text: String) {
        #expect(throws: Version.ParseError.self) { try Version(parsing: text) }
        #expect(Version(text) == nil)
    }

    @Test func parseErrorNamesTheText() {
        let error = #expect(throws: Version.ParseError.self) { try Version(parsing: "2.x") }
        #expect(error?.text == "2.x")
        #expect(error?.description == "invalid version '2.x': expected dot-separated numbers such as 2.10.1")
    }

    @Test func zeroIsTheDefaultBaseline() {
        #expect(Version.zero == Version("0.0.0"))
        #expect(Version.zero < Version("0.0.1"))
        #expect(Version.zero > Version("0-alpha"))
    }

    @Test func codableAsItsText() throws {
        let data = try JSONEncoder().encode([Version("v2.10")])
        #expect(String(decoding: data, as: UTF8.self) == #"["v2.10"]"#)
        #expect(try JSONDecoder().decode([Version].self, from: data) == [Version("2.10")])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([Version].self, from: Data(#"["2.x"]"#.utf8)) }
    }

    /// Property: over a pool of generated versions, `<` is a strict total order consistent with `==`.
    @Test func orderIsTotalAndConsistentWithEquality() throws {
        var generator = SystemRandomNumberGenerator()
        let pool = (0..<300).map { _ in randomVersion(&generator) } + ["1.0", "1.0.0", "1.0-rc.1", "1.0.0-rc.1", "01.0"].map { Version($0)! }
        for a in pool {
            #expect(!(a < a))
            for b in pool {
                let relations = [a < b, a == b, b < a].filter { $0 }.count
                #expect(relations == 1, "\(a) vs \(b)")
                if a == b { #expect(a.hashValue == b.hashValue) }
            }
        }
        let sorted = pool.sorted()
        for (a, b) in zip(sorted, sorted.dropFirst()) { #expect(a <= b) }
        for (a, b, c) in zip(zip(sorted, sorted.dropFirst()), sorted.dropFirst(2)).map({ ($0.0, $0.1, $1) }) where a < b && b < c {
            #expect(a < c)
        }
    }

    private func randomVersion(_ generator: inout SystemRandomNumberGenerator) -> Version {
        let components = (0..<Int.random(in: 1...4, using: &generator)).map { _ in
            String(repeating: "0", count: Int.random(in: 0...1, using: &generator)) + String(Int.random(in: 0...3, using: &generator))
        }
        var text = components.joined(separator: ".")
        if Bool.random(using: &generator) {
            let identifiers = ["rc", "1", "alpha", "2", "beta", "10", "a-b"]
            text += "-" + (0..<Int.random(in: 1...2, using: &generator)).map { _ in identifiers.randomElement(using: &generator)! }.joined(separator: ".")
        }
        return Version(text)!
    }
}
