extension YAMLNode {
    /// A deterministic text of the subtree (mapping keys sorted, scalars core-resolved) for fingerprints.
    ///
    /// JSON-like: `{"key":value,…}` with keys as quoted strings of their text, sorted by their UTF-8
    /// bytes; `[…]`; `null`, `true`, integers in decimal, floats in Swift's shortest form
    /// (`.inf`, `-.inf`, `.nan`), strings quoted with JSON escapes. So `500` and `"500"` differ,
    /// while `0x1F` and `31` are the same value. Aliases are expanded.
    public var canonicalText: String {
        var output: [UInt8] = []
        appendCanonicalText(to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// Appends the UTF-8 bytes of `canonicalText` to `output`, building no string per node: what a
    /// fingerprint hashes for every step of a manifest.
    public func appendCanonicalText(to output: inout [UInt8]) {
        enum Item {
            case node(Int)
            case byte(UInt8)
            /// A mapping key: its quoted text, then the colon.
            case key(Int)
        }
        var work: [Item] = []
        work.reserveCapacity(32)  // a step's `with:` without regrowing
        work.append(.node(index))
        while let item = work.popLast() {
            switch item {
            case .byte(let byte):
                output.append(byte)
            case .key(let index):
                Self.appendQuoted(index, of: storage, to: &output)
                output.append(UInt8(ascii: ":"))
            case .node(let index):
                let node = YAMLNode(storage: storage, index: index)
                let children = node.childIndices
                switch node.kind {
                case .scalar:
                    node.appendCanonicalScalar(to: &output)
                case .sequence:
                    work.append(.byte(UInt8(ascii: "]")))
                    for position in children.indices.reversed() {
                        work.append(.node(Int(children[position])))
                        if position > children.startIndex { work.append(.byte(UInt8(ascii: ","))) }
                    }
                    work.append(.byte(UInt8(ascii: "[")))
                case .mapping:
                    let keys = stride(from: children.startIndex, to: children.endIndex, by: 2).sorted {
                        storage.compareText(Int(children[$0]), Int(children[$1])) < 0
                    }
                    work.append(.byte(UInt8(ascii: "}")))
                    for (position, key) in keys.enumerated().reversed() {
                        work.append(.node(Int(children[key + 1])))
                        work.append(.key(Int(children[key])))
                        if position > 0 { work.append(.byte(UInt8(ascii: ","))) }
                    }
                    work.append(.byte(UInt8(ascii: "{")))
                }
            }
        }
    }

    private func appendCanonicalScalar(to output: inout [UInt8]) {
        switch core {
        case .null: output += "null".utf8
        case .bool(let value): output += (value ? "true" : "false").utf8
        case .int(let value): output += String(value).utf8
        case .bigInt: storage.withScalarBytes(index) { output += $0 }
        case .float(let value) where value.isNaN: output += ".nan".utf8
        case .float(let value) where value.isInfinite: output += (value < 0 ? "-.inf" : ".inf").utf8
        case .float(let value): output += String(value).utf8
        case .string: Self.appendQuoted(index, of: storage, to: &output)
        }
    }

    /// `text` as a JSON string literal.
    static func quoted(_ text: String) -> String {
        var output: [UInt8] = []
        appendQuoted(text.utf8, to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    private static func appendQuoted(_ index: Int, of storage: YAMLStorage, to output: inout [UInt8]) {
        storage.withScalarBytes(index) { appendQuoted($0, to: &output) }
    }

    /// UTF-8 `bytes` as a JSON string literal. Byte by byte: the escaped characters are all ASCII,
    /// and no byte of another character is.
    private static func appendQuoted(_ bytes: some Sequence<UInt8>, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\""): output += #"\""#.utf8
            case UInt8(ascii: "\\"): output += #"\\"#.utf8
            case UInt8(ascii: "\n"): output += #"\n"#.utf8
            case UInt8(ascii: "\r"): output += #"\r"#.utf8
            case UInt8(ascii: "\t"): output += #"\t"#.utf8
            case 0..<0x20:
                output += #"\u00"#.utf8
                output.append(hexDigit(byte >> 4))
                output.append(hexDigit(byte & 0xF))
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }

    /// An uppercase hex digit of `value` (0–15).
    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10
    }
}
