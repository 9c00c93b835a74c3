import Testing
@testable import Milepost

/// The one check of how a step's script left its connection's transaction, table-driven.
@Suite struct ScriptTransactionChangeTests {
    @Test(arguments: [
        (true, true, nil),
        (false, false, nil),
        (true, false, ScriptTransactionChange.endedStepTransaction),
        (false, true, ScriptTransactionChange.leftOpen),
    ] as [(Bool, Bool, ScriptTransactionChange?)])
    func aChangeIsWhatTheScriptDidToTheTransaction(inStepTransaction: Bool, openAfter: Bool, change: ScriptTransactionChange?) {
        #expect(ScriptTransactionChange(inStepTransaction: inStepTransaction, openAfter: openAfter) == change)
    }

    @Test func theAdviceNamesTheTransactionOptionOnlyForAStepThatHasIt() {
        #expect(ScriptTransactionChange.endedStepTransaction.failure(transactionOption: true).contains("(or set transaction: false)"))
        #expect(!ScriptTransactionChange.endedStepTransaction.failure(transactionOption: false).contains("transaction: false"))
        #expect(ScriptTransactionChange.leftOpen.failure(transactionOption: true).hasSuffix("it runs in the step's own transaction"))
        #expect(ScriptTransactionChange.leftOpen.failure(transactionOption: false).hasSuffix("remove BEGIN from the script"))
    }
}
