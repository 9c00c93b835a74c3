extension YAMLNode {
    /// A deterministic text of the subtree (mapping keys sorted, scalars core-resolved) for fingerprints.
    ///
    /// JSON-like: `{"key":value,…}` with keys as quoted strings of their text, sorted by their UTF-8
    /// bytes; `[…]`; `null`, `true`, integers in decimal, floats in Swift's shortest form
    /// (`.inf`, `-.inf`, `.nan`), strings quoted with JSON escapes. So `500` and `"500"` differ,
    /// while `0x1F` and `31` are the same value. Aliases are expanded.
    public var canonicalText: String {
        enum Item {
            case node(Int)
            case text(String)
        }
        var output = ""
        var work: [Item] = [.node(index)]
        while let item = work.popLast() {
            switch item {
            case .text(let text):
                output += text
            case .node(let index):
                let node = YAMLNode(storage: storage, index: index)
                let children = node.childIndices
                switch node.kind {
                case .scalar:
                    output += node.canonicalScalar
                case .sequence:
                    work.append(.text("]"))
                    for (position, child) in children.enumerated().reversed() {
                        work.append(.node(Int(child)))
                        if position > 0 { work.append(.text(",")) }
                    }
                    work.append(.text("["))
                case .mapping:
                    let keys = stride(from: children.startIndex, to: children.endIndex, by: 2).sorted {
                        storage.compareText(Int(children[$0]), Int(children[$1])) < 0
                    }
                    work.append(.text("}"))
                    for (position, key) in keys.enumerated().reversed() {
                        work.append(.node(Int(children[key + 1])))
                        work.append(.text(Self.quoted(storage.text(Int(children[key]))) + ":"))
                        if position > 0 { work.append(.text(",")) }
                    }
                    work.append(.text("{"))
                }
            }
        }
        return output
    }

    private var canonicalScalar: String {
        switch core {
        case .null: "null"
        case .bool(let value): value ? "true" : "false"
        case .int(let value): String(value)
        case .bigInt: storage.text(index)
        case .float(let value) where value.isNaN: ".nan"
        case .float(let value) where value.isInfinite: value < 0 ? "-.inf" : ".inf"
        case .float(let value): String(value)
        case .string: Self.quoted(storage.text(index))
        }
    }

    /// `text` as a JSON string literal.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\u{0}"..."\u{1F}":
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
