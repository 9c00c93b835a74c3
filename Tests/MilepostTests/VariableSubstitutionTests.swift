@testable import Milepost
import Testing

@Suite struct VariableSubstitutionTests {
    private func substitute(_ text: String, _ values: [String: String]) throws -> String {
        try VariableSubstitution.substitute(VariableSubstitution.parse(text), values: values)
    }

    private func problem(_ text: String, _ values: [String: String] = [:]) -> String? {
        do {
            _ = try substitute(text, values)
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

    @Test func unsetVariablesAreErrors() {
        #expect(problem("${DB}") == "variable 'DB' is not set (write ${DB:-} for an empty default)")
        #expect(problem("${DB:?set DB to the database URL}") == "variable 'DB' is not set: set DB to the database URL")
        #expect(problem("${DB:?}", ["DB": ""]) == "variable 'DB' is not set")
    }

    @Test func malformedReferencesAreErrors() {
        #expect(problem("${DB") == "'${' without a closing '}'")
        #expect(problem("${1X}") == "invalid variable name in '${1X}': use letters, digits and '_', not starting with a digit")
        #expect(problem("${}") == "invalid variable name in '${}': use letters, digits and '_', not starting with a digit")
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
