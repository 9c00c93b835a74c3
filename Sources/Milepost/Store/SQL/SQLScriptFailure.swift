/// Why a step's script failed: the database's message, or the store's refusal of what the script
/// did to the step's transaction (`ScriptTransactionChange`). The step fails with it.
package struct SQLScriptFailure: Error, CustomStringConvertible {
    package var message: String

    package init(message: String) {
        self.message = message
    }

    package var description: String { message }
}
