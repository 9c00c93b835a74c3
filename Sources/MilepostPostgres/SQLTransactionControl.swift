/// The transaction-control statements a SQL script visibly contains (`BEGIN`, `START TRANSACTION`,
/// `COMMIT`, `END`, `ROLLBACK`, `ABORT`): the statements that, in an `sql` step run in its
/// checkpoint's transaction, would end that transaction early. A scan for `validate`'s warning, not
/// a parser: it skips quoted text, quoted identifiers, dollar-quoted bodies (`DO $$ BEGIN … END $$`)
/// and comments, splits the rest at semicolons and looks at each statement's first word(s).
/// `ROLLBACK TO SAVEPOINT` stays inside the transaction and is not reported. The check at run time
/// is the connection's transaction status (`LockedSQLStore`'s script check, `ScriptTransactionChange`).
enum SQLTransactionControl {
    /// The transaction-control statements of `sql`, in order, each as its leading keyword(s)
    /// in upper case (`COMMIT`, `START TRANSACTION`).
    static func statements(in sql: String) -> [String] {
        statementHeads(Array(sql.unicodeScalars)).compactMap { words in
            switch words.first {
            case "BEGIN", "COMMIT", "END", "ABORT": words[0]
            case "START" where words.dropFirst().first == "TRANSACTION": "START TRANSACTION"
            case "ROLLBACK" where words.dropFirst().first != "TO": "ROLLBACK"
            default: nil
            }
        }
    }

    /// The first two words (upper case) of every statement, with quoted text and comments skipped.
    private static func statementHeads(_ text: [Unicode.Scalar]) -> [[String]] {
        var heads: [[String]] = []
        var words: [String] = []
        var word = ""
        var index = 0
        func endWord() {
            if !word.isEmpty, words.count < 2 { words.append(word.uppercased()) }
            word = ""
        }
        /// Something that is not a word (quoted text, punctuation) takes a word's place in the head.
        func nonWord() {
            endWord()
            if words.count < 2 { words.append("") }
        }
        while index < text.count {
            let scalar = text[index]
            let next = index + 1 < text.count ? text[index + 1] : nil
            switch scalar {
            case "'", "\"":
                nonWord()
                index = skipQuoted(text, from: index + 1, closing: scalar)
                continue
            case "-" where next == "-":
                endWord()
                while index < text.count, text[index] != "\n" { index += 1 }
                continue
            case "/" where next == "*":
                endWord()
                index = skipBlockComment(text, from: index + 2)
                continue
            case "$":
                if let end = dollarQuoteEnd(text, at: index) {
                    nonWord()
                    index = end
                    continue
                }
                word.unicodeScalars.append(scalar)
            case ";":
                endWord()
                if !words.isEmpty { heads.append(words) }
                words = []
            default:
                if scalar.properties.isAlphabetic || scalar == "_" || ("0"..."9").contains(scalar) {
                    word.unicodeScalars.append(scalar)
                } else {
                    if scalar.properties.isWhitespace { endWord() } else { nonWord() }
                }
            }
            index += 1
        }
        endWord()
        if !words.isEmpty { heads.append(words) }
        return heads
    }

    /// The index after the closing quote (a doubled quote is part of the text).
    private static func skipQuoted(_ text: [Unicode.Scalar], from start: Int, closing: Unicode.Scalar) -> Int {
        var index = start
        while index < text.count {
            if text[index] == closing {
                if index + 1 < text.count, text[index + 1] == closing {
                    index += 2
                    continue
                }
                return index + 1
            }
            index += 1
        }
        return index
    }

    /// The index after `*/`.
    private static func skipBlockComment(_ text: [Unicode.Scalar], from start: Int) -> Int {
        var index = start
        while index + 1 < text.count, !(text[index] == "*" && text[index + 1] == "/") { index += 1 }
        return min(index + 2, text.count)
    }

    /// When a dollar quote (`$$` or `$tag$`) opens at `start`: the index after its closing tag.
    private static func dollarQuoteEnd(_ text: [Unicode.Scalar], at start: Int) -> Int? {
        var index = start + 1
        while index < text.count, text[index].properties.isAlphabetic || text[index] == "_" { index += 1 }
        guard index < text.count, text[index] == "$" else { return nil }
        let tag = Array(text[start...index])
        var search = index + 1
        while search + tag.count <= text.count {
            if Array(text[search..<(search + tag.count)]) == tag { return search + tag.count }
            search += 1
        }
        return text.count
    }
}
