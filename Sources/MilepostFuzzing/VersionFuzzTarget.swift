import FoundationEssentials
import Milepost

extension FuzzTarget {
    /// Version texts, as thresholds, `--to`, `baseline:` and stores write them; up to three, one a line.
    static let version = FuzzTarget(
        name: "version",
        summary: "up to three version texts, one a line → Version(parsing:); each reads back from its text and from JSON; "
            + "the order is total (exactly one of <, >, ==), transitive, and equal versions hash alike"
    ) { bytes in
        let texts = bytes.split(separator: UInt8(ascii: "\n"), maxSplits: 2, omittingEmptySubsequences: false)
            .map { String(decoding: $0, as: UTF8.self) }
        let versions = texts.compactMap { try? Version(parsing: $0) }
        for version in versions {
            let again = try? Version(parsing: version.text)
            try oracle(again == version && again?.text == version.text, "\(version.text.debugDescription) does not read back")
            let json = try JSONEncoder().encode([version])
            let decoded = try JSONDecoder().decode([Version].self, from: json)
            try oracle(decoded == [version] && decoded[0].text == version.text, "\(version.text.debugDescription) does not decode back")
        }
        for a in versions {
            for b in versions {
                let relations = [a < b, b < a, a == b].filter { $0 }.count
                try oracle(relations == 1, "\(a.text.debugDescription) and \(b.text.debugDescription) are in \(relations) relations")
                if a == b { try oracle(a.hashValue == b.hashValue, "\(a.text.debugDescription) == \(b.text.debugDescription) hash apart") }
                for c in versions where a < b && b < c {
                    try oracle(a < c, "\(a.text.debugDescription) < \(b.text.debugDescription) < \(c.text.debugDescription) but not <")
                }
            }
        }
    }
}
