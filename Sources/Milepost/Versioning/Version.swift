import MilepostSystem

/// A version as Milepost orders it: numeric per dot-separated component, missing components
/// are zero, leading zeros do not count, a pre-release sorts before its release (SemVer 2.0
/// precedence), build metadata never matters.
///
/// ```swift
/// let v: Version = try Version(parsing: "v2.10.3")
/// let w: Version = "2.10"              // a literal; one that is not a version stops the program
/// ("2.10" as Version) > "2.9"          // true
/// Version("2.1") == Version("2.1.0")   // true: with a literal, Version("…") is the literal form
/// ```
public struct Version: Sendable, Hashable, Comparable, LosslessStringConvertible, ExpressibleByStringLiteral {
    /// The text as written (`v2.10.3`), kept for display and storage.
    public let text: String
    /// Numeric components without leading zeros and without trailing zero components.
    let components: [Substring]
    /// Pre-release identifiers; empty for a release.
    let preRelease: [Substring]
    /// `components` as integers when none has more than 18 digits (any version in use): `<` compares
    /// these, where comparing the digit strings cost the planner ≈ 1 k instructions a threshold.
    let numbers: [UInt64]?

    /// Parses `text`, throwing a `Version.ParseError` that names the offending text.
    public init(parsing text: String) throws(ParseError) {
        // Searched and split by UTF-8 bytes: a version is ASCII, and `Character`s cost a manifest's
        // load ten thousand instructions a threshold.
        var rest = Substring(text)
        if let first = rest.first, first == "v" || first == "V" { rest = rest.dropFirst() }
        if let plus = rest.utf8.firstIndex(of: UInt8(ascii: "+")) {
            let build = rest[rest.utf8.index(after: plus)...]
            guard Self.isIdentifierList(build) else { throw ParseError(text: text, reason: "invalid build metadata") }
            rest = rest[..<plus]
        }
        var preRelease: [Substring] = []
        if let dash = rest.utf8.firstIndex(of: UInt8(ascii: "-")) {
            let pre = rest[rest.utf8.index(after: dash)...]
            guard Self.isIdentifierList(pre) else { throw ParseError(text: text, reason: "invalid pre-release") }
            preRelease = Self.dotSeparated(pre).map { identifier in
                identifier.utf8.allSatisfy(\.isASCIIDigit) ? Self.strippingLeadingZeros(identifier) : identifier
            }
            rest = rest[..<dash]
        }
        let numbers = Self.dotSeparated(rest)
        guard numbers.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy(\.isASCIIDigit) }) else {
            throw ParseError(text: text, reason: "expected dot-separated numbers such as 2.10.1")
        }
        var normalized = numbers.map(Self.strippingLeadingZeros)
        while let last = normalized.last, last.utf8.count == 1, last.utf8.first == UInt8(ascii: "0") { normalized.removeLast() }
        self.text = text
        self.components = normalized
        self.preRelease = preRelease
        self.numbers = Self.numbers(normalized)
    }

    /// Each component (ASCII digits) as an integer; nil when one has more than 18 digits.
    private static func numbers(_ components: [Substring]) -> [UInt64]? {
        var numbers: [UInt64] = []
        numbers.reserveCapacity(components.count)
        for component in components {
            guard component.utf8.count <= 18 else { return nil }
            numbers.append(component.utf8.reduce(0) { $0 * 10 + UInt64($1 &- UInt8(ascii: "0")) })
        }
        return numbers
    }

    /// Parses `description`; nil when it is not a version.
    public init?(_ description: String) {
        try? self.init(parsing: description)
    }

    public var description: String { text }

    /// A version written in the source: `"2.1"` where a `Version` is expected. A literal that is not
    /// a version is a programmer error and stops the program; parse text from elsewhere with
    /// `init(parsing:)` or `init?(_:)` (a `String` value, not a literal).
    public init(stringLiteral text: String) {
        do {
            try self.init(parsing: text)
        } catch {
            preconditionFailure("the literal \"\(text)\" is not a version (\(error.reason)): write one such as \"2.10.1\"")
        }
    }

    /// The version every store starts from when the manifest names no baseline.
    public static let zero = Version(uncheckedZero: ())

    private init(uncheckedZero: Void) {
        text = "0"
        components = []
        preRelease = []
        numbers = []
    }

    /// Why a text is not a version.
    public struct ParseError: Error, Sendable, Hashable, CustomStringConvertible {
        public var text: String
        public var reason: String
        public var description: String { "invalid version '\(text)': \(reason)" }
    }

    // MARK: - Equality and order

    public static func == (lhs: Version, rhs: Version) -> Bool {
        lhs.components == rhs.components && lhs.preRelease == rhs.preRelease
    }

    /// The integers when there are (equal components give equal integers): hashing the digit
    /// strings normalises each as Unicode text, a manifest's load paid that for every threshold.
    public func hash(into hasher: inout Hasher) {
        if let numbers { hasher.combine(numbers) } else { hasher.combine(components) }
        hasher.combine(preRelease)
    }

    public static func < (lhs: Version, rhs: Version) -> Bool {
        if let left = lhs.numbers, let right = rhs.numbers {
            for index in 0..<max(left.count, right.count) {
                let (leftNumber, rightNumber) = (index < left.count ? left[index] : 0, index < right.count ? right[index] : 0)
                if leftNumber != rightNumber { return leftNumber < rightNumber }
            }
            return preReleaseLess(lhs, rhs)
        }
        for index in 0..<max(lhs.components.count, rhs.components.count) {
            let left = index < lhs.components.count ? lhs.components[index] : "0"
            let right = index < rhs.components.count ? rhs.components[index] : "0"
            if !left.utf8.elementsEqual(right.utf8) { return numericLess(left, right) }
        }
        return preReleaseLess(lhs, rhs)
    }

    /// The order of two versions whose release parts are equal: a pre-release sorts before the release.
    private static func preReleaseLess(_ lhs: Version, _ rhs: Version) -> Bool {
        switch (lhs.preRelease.isEmpty, rhs.preRelease.isEmpty) {
        case (true, _): return false
        case (false, true): return true
        case (false, false): return preReleaseLess(lhs.preRelease, rhs.preRelease)
        }
    }

    // MARK: - Helpers

    /// `text` split at each `.`, empty parts kept. An index loop: `utf8.indices` of a `Substring`
    /// went through the generic `Slice`, ≈ 1.4 k instructions a version.
    private static func dotSeparated(_ text: Substring) -> [Substring] {
        var parts: [Substring] = []
        let utf8 = text.utf8
        var (start, index) = (utf8.startIndex, utf8.startIndex)
        while index < utf8.endIndex {
            if utf8[index] == UInt8(ascii: ".") {
                parts.append(text[start..<index])
                start = utf8.index(after: index)
            }
            utf8.formIndex(after: &index)
        }
        parts.append(text[start...])
        return parts
    }

    private static func isIdentifierList(_ text: Substring) -> Bool {
        dotSeparated(text).allSatisfy { identifier in
            !identifier.isEmpty && identifier.allSatisfy { $0.isASCIIDigit || $0.isASCIILetter || $0 == "-" }
        }
    }

    /// `digits` (ASCII digits) without its leading zeros; "0" for zero.
    private static func strippingLeadingZeros(_ digits: Substring) -> Substring {
        guard let first = digits.utf8.firstIndex(where: { $0 != UInt8(ascii: "0") }) else { return "0" }
        return digits[first...]
    }

    /// Compares two digit strings without leading zeros, of any length (ASCII: compared as bytes).
    private static func numericLess(_ lhs: Substring, _ rhs: Substring) -> Bool {
        let (left, right) = (lhs.utf8, rhs.utf8)
        return left.count != right.count ? left.count < right.count : left.lexicographicallyPrecedes(right)
    }

    /// SemVer 2.0 §11.4: numeric identifiers compare numerically and sort before alphanumeric ones;
    /// a shorter list sorts first when all shared identifiers are equal.
    private static func preReleaseLess(_ lhs: [Substring], _ rhs: [Substring]) -> Bool {
        for (left, right) in zip(lhs, rhs) where left != right {
            let leftNumeric = left.allSatisfy(\.isASCIIDigit)
            let rightNumeric = right.allSatisfy(\.isASCIIDigit)
            switch (leftNumeric, rightNumeric) {
            case (true, true): return numericLess(left, right)
            case (true, false): return true
            case (false, true): return false
            case (false, false): return left < right
            }
        }
        return lhs.count < rhs.count
    }
}

extension Character {
    // On the UTF-8 bytes: a Character is a grapheme cluster, and "1" + U+0301 sorts between "0"
    // and "9" as a Character while it is no digit.
    fileprivate var isASCIIDigit: Bool { isASCIIByte(in: UInt8(ascii: "0")...UInt8(ascii: "9")) }
    fileprivate var isASCIILetter: Bool {
        isASCIIByte(in: UInt8(ascii: "a")...UInt8(ascii: "z")) || isASCIIByte(in: UInt8(ascii: "A")...UInt8(ascii: "Z"))
    }

    /// One byte of UTF-8, within `range`.
    private func isASCIIByte(in range: ClosedRange<UInt8>) -> Bool {
        var bytes = utf8.makeIterator()
        guard let byte = bytes.next(), bytes.next() == nil else { return false }
        return range.contains(byte)
    }
}
