/// A label expression (`--labels`), as in Liquibase: label names combined with `and`, `or`, `not`
/// (or `!`) and parentheses; `,` is another `or`. `not` binds tighter than `and`, `and` tighter
/// than `or`. Keywords are case-insensitive; labels match exactly.
///
/// ```swift
/// let scope = try LabelExpression(parsing: "eu and not (heavy or slow)")
/// scope.matches(["eu"])            // true
/// scope.matches(["eu", "heavy"])   // false
/// ```
public struct LabelExpression: Sendable, Hashable, CustomStringConvertible {
    indirect enum Node: Sendable, Hashable {
        case label(String)
        case not(Node)
        case and(Node, Node)
        case or(Node, Node)
    }

    /// The expression as given.
    public let text: String
    let root: Node

    /// Parses `text`.
    /// - throws: `LabelExpression.ParseError` with the column (1-based, in characters) of the problem.
    public init(parsing text: String) throws(ParseError) {
        var parser = Parser(text: text)
        self.text = text
        self.root = try parser.parse()
    }

    /// Whether a step carrying `labels` is in scope.
    public func matches(_ labels: some Collection<String>) -> Bool {
        Self.evaluate(root, Set(labels))
    }

    public var description: String { text }

    private static func evaluate(_ node: Node, _ labels: Set<String>) -> Bool {
        switch node {
        case .label(let name): labels.contains(name)
        case .not(let inner): !evaluate(inner, labels)
        case .and(let left, let right): evaluate(left, labels) && evaluate(right, labels)
        case .or(let left, let right): evaluate(left, labels) || evaluate(right, labels)
        }
    }

    // MARK: - Labels

    /// The syntax of a label: `[A-Za-z_][A-Za-z0-9_.-]*`, and none of the keywords `and`, `or`, `not`.
    public static func isLabel(_ text: String) -> Bool {
        guard let first = text.first, first.isASCII, first.isLetter || first == "_" else { return false }
        return !keywords.contains(text.lowercased()) && text.allSatisfy(isLabelCharacter)
    }

    static let keywords: Set<String> = ["and", "or", "not"]

    static func isLabelCharacter(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber || "_.-".contains(character))
    }

    // MARK: - Errors

    /// An expression that does not parse: where, and what was expected.
    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        public let expression: String
        /// 1-based, in characters.
        public let column: Int
        public let message: String

        /// `column C: MESSAGE`, then the expression and a caret under the column.
        public var description: String {
            "column \(column): \(message)\n  \(expression)\n  \(String(repeating: " ", count: column - 1))^"
        }
    }

    // MARK: - Parsing

    /// A recursive-descent parser over the expression's characters:
    /// `or := and (("or" | ",") and)*`, `and := not ("and" not)*`, `not := ("not" | "!") not | primary`,
    /// `primary := "(" or ")" | LABEL`.
    private struct Parser {
        enum Token: Equatable {
            case label(String), and, or, not, open, close, end
        }

        let text: String
        let characters: [Character]
        var position = 0
        /// The current token and the 0-based column where it starts.
        var token: Token = .end
        var start = 0
        /// How deep parentheses and `not`s nest; bounded so a hostile expression cannot exhaust the stack.
        var depth = 0
        static let maximumDepth = 100

        init(text: String) {
            self.text = text
            self.characters = Array(text)
        }

        mutating func parse() throws(ParseError) -> Node {
            try advance()
            if token == .end { throw error("the expression is empty: write a label, e.g. eu or (eu and not heavy)") }
            let node = try or()
            switch token {
            case .end: return node
            case .close: throw error("')' without a matching '('")
            default: throw error("expected 'and', 'or' or the end of the expression, found \(describe(token))")
            }
        }

        private mutating func or() throws(ParseError) -> Node {
            var node = try and()
            while token == .or {
                try advance()
                node = .or(node, try and())
            }
            return node
        }

        private mutating func and() throws(ParseError) -> Node {
            var node = try not()
            while token == .and {
                try advance()
                node = .and(node, try not())
            }
            return node
        }

        private mutating func not() throws(ParseError) -> Node {
            guard token == .not else { return try primary() }
            try nest()
            defer { depth -= 1 }
            try advance()
            return .not(try not())
        }

        private mutating func primary() throws(ParseError) -> Node {
            switch token {
            case .label(let name):
                try advance()
                return .label(name)
            case .open:
                let open = start
                try nest()
                defer { depth -= 1 }
                try advance()
                let node = try or()
                guard token == .close else {
                    throw error("expected ')' to close the '(' at column \(open + 1), found \(describe(token))")
                }
                try advance()
                return node
            default:
                throw error("expected a label, 'not' or '(', found \(describe(token))")
            }
        }

        private mutating func nest() throws(ParseError) {
            depth += 1
            if depth > Self.maximumDepth { throw error("nested more than \(Self.maximumDepth) deep") }
        }

        /// Reads the next token into `token` and `start`.
        private mutating func advance() throws(ParseError) {
            while position < characters.count, characters[position].isWhitespace { position += 1 }
            start = position
            guard position < characters.count else {
                token = .end
                return
            }
            let character = characters[position]
            position += 1
            switch character {
            case "(": token = .open
            case ")": token = .close
            case "!": token = .not
            case ",": token = .or
            default:
                guard LabelExpression.isLabelCharacter(character) else {
                    throw error("unexpected '\(character)': labels are letters, digits, '_', '.' and '-'")
                }
                while position < characters.count, LabelExpression.isLabelCharacter(characters[position]) { position += 1 }
                let word = String(characters[start..<position])
                switch word.lowercased() {
                case "and": token = .and
                case "or": token = .or
                case "not": token = .not
                default:
                    guard LabelExpression.isLabel(word) else {
                        throw error("invalid label '\(word)': labels start with a letter or '_'")
                    }
                    token = .label(word)
                }
            }
        }

        private func describe(_ token: Token) -> String {
            switch token {
            case .label(let name): "'\(name)'"
            case .and, .or, .not: "'\(String(characters[start..<position]))'"
            case .open: "'('"
            case .close: "')'"
            case .end: "the end of the expression"
            }
        }

        private func error(_ message: String) -> ParseError {
            ParseError(expression: text, column: start + 1, message: message)
        }
    }
}
