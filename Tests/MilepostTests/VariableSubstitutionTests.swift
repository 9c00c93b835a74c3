@testable import Milepost
import Testing

@Suite struct VariableSubstitutionTests {
    /// The variables the tests' manifests declare.
    static let declared: Set<String> = ["HOST", "PORT", "EMPTY", "DB", "A", "X", "MILEPOST_STEP"]

    private func substitute(_ text: String, _ values: [String: String], declared: Set<String> = declared) throws -> String {
        try VariableSubstitution.substitute(VariableSubstitution.parse(text, declared: declared), values: values)
    }

    private func problem(_ text: String, _ values: [String: String] = [:], declared: Set<String> = declared) -> String? {
        do {
            _ = try substitute(text, values, declared: declared)
            return nil
        } catch {
            return (error as? VariableSubstitution.Problem)?.message
        }
    }

    @Test func substitutesTheThreeForms() throws {
        let values = ["HOST": "db", "EMPTY": ""]
        #expect(try substitute("${HOST}:5432", values) == "db:5432")
        #expect(try substitute("${PORT:-5432} ${EMPTY:-x} ${HOST:-x}", values) == "5432 x db")
        #expect(try substitute("${HOST:?needed}", values) == "db")
        #expect(try substitute("${EMPTY}", values) == "")
        #expect(try substitute("${secret:HOST}", values) == "db")
    }

    /// Only `${` starts a variable: `$HOME` and `$$` are the shell's, `$${` is a literal `${`.
    @Test func onlyDollarBraceIsSpecial() throws {
        #expect(try substitute("echo $HOME $$ $1 $", [:]) == "echo $HOME $$ $1 $")
        #expect(try substitute("$${HOME} $$ ${X}", ["X": "x"]) == "${HOME} $$ x")
        // The variables Milepost sets for the step are the step's shell's to expand.
        #expect(try substitute("${MILEPOST_RESUME_CURSOR:-0} ${MILEPOST_STEP}", ["MILEPOST_STEP": "runner's"])
            == "${MILEPOST_RESUME_CURSOR:-0} ${MILEPOST_STEP}")
    }

    /// Only declared variables are substituted: any other `${…}` is the shell's, kept as written
    /// however it is formed, and never an error (issue 25, item 9).
    @Test func undeclaredReferencesAreKeptAsWritten() throws {
        #expect(try substitute("x=1; echo ${x:-none} ${#list[@]} ${x/a/b} ${HOST}", ["x": "2", "HOST": "db"], declared: ["HOST"])
            == "x=1; echo ${x:-none} ${#list[@]} ${x/a/b} db")
        #expect(try substitute("${HOST}", ["HOST": "db"], declared: []) == "${HOST}")
        #expect(try substitute("${OPEN unclosed", [:], declared: []) == "${OPEN unclosed")
        #expect(try substitute("${secret:HOST}", ["HOST": "db"], declared: []) == "db")  // declares itself
        #expect(try VariableSubstitution.parse("a ${x:-none} b", declared: []) == [.text("a "), .shell("${x:-none}"), .text(" b")])
    }

    @Test func unsetVariablesAreErrors() {
        #expect(problem("${DB}") == "variable 'DB' is not set (write ${DB:-} for an empty default)")
        #expect(problem("${DB:?set DB to the database URL}") == "variable 'DB' is not set: set DB to the database URL")
        #expect(problem("${DB:?}", ["DB": ""]) == "variable 'DB' is not set")
    }

    @Test func malformedReferencesAreErrors() {
        #expect(problem("${DB") == "'${' without a closing '}'")
        #expect(problem("${secret:1X}") == "invalid variable name in '${secret:1X}': use letters, digits and '_', not starting with a digit")
        #expect(problem("${1X}") == nil && problem("${}") == nil)  // no declared variable: the shell's
        #expect(problem("${A:x}") == "invalid '${A:x}': write ${NAME}, ${NAME:-default}, ${NAME:?message} or ${secret:NAME}")
        #expect(problem("${A-b}") == "invalid '${A-b}': write ${NAME}, ${NAME:-default}, ${NAME:?message} or ${secret:NAME}")
    }

    @Test func envFileSyntax() {
        let source = ManifestSource(path: ".env", bytes: Array("""
            # a comment

            PLAIN=value with spaces   # trailing comment
            export EXPORTED=yes
            SINGLE='lit $ \\n #'
            DOUBLE="a\\nb \\"q\\" \\\\"
            EMPTY=
            1BAD=x
            no equals sign
            OPEN="never closed

            """.utf8))
        let (values, problems) = EnvFile.parse(source)
        #expect(values == [
            "PLAIN": "value with spaces", "EXPORTED": "yes", "SINGLE": "lit $ \\n #", "DOUBLE": "a\nb \"q\" \\", "EMPTY": "",
        ])
        #expect(problems.map { "\($0.location!.line):\($0.location!.column): \($0.message)" } == [
            "8:1: invalid variable name '1BAD': use letters, digits and '_', not starting with a digit",
            "9:1: expected NAME=value",
            "10:1: a quoted value must end on its line",
        ])
    }
}
