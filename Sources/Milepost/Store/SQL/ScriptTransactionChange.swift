/// How a step's script changed the transaction of the connection it ran on: the one check of the
/// database stores' scripts (`StoreScripts`). A script run in the step's transaction must leave it
/// open — a COMMIT, ROLLBACK or END in it ended that transaction before the checkpoint, so what it
/// ran before is committed or undone on its own — and a script run on its own must not leave one
/// open: a BEGIN without its end would carry the next checkpoints into its transaction.
package enum ScriptTransactionChange: Equatable, Sendable {
    /// The script ended the step's transaction.
    case endedStepTransaction
    /// The script, run on its own, left a transaction open (the store rolls it back).
    case leftOpen

    /// The change, from whether the step's transaction was open before the script
    /// (`inStepTransaction`) and whether a transaction is open after it (`openAfter`); nil when the
    /// script left the transaction as it found it.
    package init?(inStepTransaction: Bool, openAfter: Bool) {
        switch (inStepTransaction, openAfter) {
        case (true, false): self = .endedStepTransaction
        case (false, true): self = .leftOpen
        default: return nil
        }
    }

    /// Why the step fails. `transactionOption` when the step has `transaction: true | false` (the
    /// `sql` step), which the advice then names.
    package func failure(transactionOption: Bool) -> String {
        switch self {
        case .endedStepTransaction:
            "the script ended the step's transaction (a COMMIT, ROLLBACK or END in it): what it ran before "
                + "that is committed or undone on its own, not with the step's checkpoint. Remove transaction "
                + "control from the script\(transactionOption ? " (or set transaction: false)" : ""), check what it did, "
                + "then resolve the step"
        case .leftOpen:
            "the script left a transaction open (a BEGIN without its COMMIT), which was rolled back; remove BEGIN "
                + "from the script"
                + (transactionOption ? ": with transaction: true (the default) it runs in the step's own transaction" : "")
        }
    }
}
