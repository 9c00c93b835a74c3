import MilepostSystem

/// Text from a manifest or a store made safe inside GitHub-flavoured Markdown: it cannot end a
/// table cell, start a heading or a list, open a link, inject HTML, or carry control characters.
extension String {
    /// Every Markdown punctuation character backslash-escaped, control characters as visible escapes.
    package var markdownEscaped: String {
        var escaped = ""
        for character in escapingControlCharacters() {
            if character.isASCII, Self.markdownPunctuation.contains(character) { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }

    /// In a code span: backticks cannot end it and `|` cannot end the table cell.
    package var markdownCode: String {
        "`" + escapingControlCharacters().replacing(scalar: "`", with: "'").replacing(scalar: "|", with: "\\|") + "`"
    }

    private static let markdownPunctuation: Set<Character> = ["\\", "`", "*", "_", "{", "}", "[", "]", "<", ">", "(", ")", "#", "+", "-", "!", "|", "~", "&"]
}
