import Foundation
import Testing
@testable import MilepostPostgres

/// An `sql` step's script that leaves the transaction it runs in: the step fails (the connection's
/// transaction status after the script says so) and `validate` warns about what it can see.
@Suite(.enabled(if: TestServer.isConfigured, TestServer.missing))
struct SQLStepTransactionTests {
    @Test(arguments: [
        ("CREATE TABLE t7 (n int); COMMIT; INSERT INTO t7 VALUES (1)", "COMMIT"),
        ("CREATE TABLE t7 (n int); INSERT INTO t7 VALUES (1); ROLLBACK", "ROLLBACK"),
    ])
    func aScriptThatEndsTheStepsTransactionFailsTheStep(sql: String, statement: String) async throws {
        let url = try await TestServer.freshDatabase()
        let directory = try TestDirectory()
        try directory.write("""
            migrations:
              "1.0":
                - {name: sql, id: seven, with: {sql: "\(sql)"}}
            """, to: "milepost.yaml")
        let validated = try MilepostProcess.run(["validate"], in: directory.path)
        #expect(validated.status == 0, "\(validated.stderr)")
        #expect(validated.stderr.contains("warning: step 'sql': the script has \(statement), which would end the step's transaction"), "\(validated.stderr)")
        let strict = try MilepostProcess.run(["validate", "--strict"], in: directory.path)
        #expect(strict.status == 65, "\(strict.stderr)")

        let ran = try MilepostProcess.run(["run", "--store", url, "--to", "1.0"], in: directory.path)
        #expect(ran.status == 1, "\(ran.stderr)")
        #expect(ran.stderr.contains("the script ended the step's transaction (a COMMIT, ROLLBACK or END in it)"), "\(ran.stderr)")
        #expect(try await TestServer.admin("SELECT failed->>'id' FROM milepost.state", url: url) == [["1.0/seven"]])
    }

    @Test func aScriptOfItsOwnThatLeavesATransactionOpenFailsAndIsRolledBack() async throws {
        let url = try await TestServer.freshDatabase()
        let directory = try TestDirectory()
        try directory.write("""
            migrations:
              "1.0":
                - {name: sql, id: open, with: {sql: "BEGIN; CREATE TABLE t7 (n int)", transaction: false}}
            """, to: "milepost.yaml")
        let ran = try MilepostProcess.run(["run", "--store", url, "--to", "1.0"], in: directory.path)
        #expect(ran.status == 1, "\(ran.stderr)")
        #expect(ran.stderr.contains("the script left a transaction open (a BEGIN without its COMMIT), which was rolled back"), "\(ran.stderr)")
        #expect(try await TestServer.admin("SELECT to_regclass('t7') IS NULL", url: url) == [["t"]])
        #expect(try await TestServer.admin("SELECT failed->>'id' FROM milepost.state", url: url) == [["1.0/open"]])
    }

    @Test func blocksInsideQuotesAndDollarQuotesAreNotTransactionControl() async throws {
        let url = try await TestServer.freshDatabase()
        let directory = try TestDirectory()
        try directory.write("""
            migrations:
              "1.0":
                - name: sql
                  id: plpgsql
                  with:
                    sql: |
                      -- COMMIT is not run here; /* nor ROLLBACK; */
                      CREATE TABLE t7 (note text);
                      INSERT INTO t7 VALUES ('x; COMMIT');
                      DO $body$ BEGIN INSERT INTO t7 VALUES ('in a block'); END $body$;
                      SAVEPOINT s; INSERT INTO t7 VALUES ('undone'); ROLLBACK TO SAVEPOINT s;
            """, to: "milepost.yaml")
        let validated = try MilepostProcess.run(["validate", "--strict"], in: directory.path)
        #expect(validated.status == 0, "\(validated.stderr)")
        let ran = try MilepostProcess.run(["run", "--store", url, "--to", "1.0"], in: directory.path)
        #expect(ran.status == 0, "\(ran.stderr)")
        #expect(try await TestServer.admin("SELECT string_agg(note, ',' ORDER BY note) FROM t7", url: url) == [["in a block,x; COMMIT"]])
    }

    @Test func theScanFindsEachTransactionControlStatement() {
        #expect(SQLTransactionControl.statements(in: "begin; update t set n = 1; end") == ["BEGIN", "END"])
        #expect(SQLTransactionControl.statements(in: "START TRANSACTION; ABORT") == ["START TRANSACTION", "ABORT"])
        #expect(SQLTransactionControl.statements(in: "select 'commit'; \"commit\"; rollback to s") == [])
        #expect(SQLTransactionControl.statements(in: "CREATE FUNCTION f() RETURNS int AS $$ BEGIN RETURN 1; END $$ LANGUAGE plpgsql") == [])
        #expect(SQLTransactionControl.statements(in: "select $1; /* a; */ commit") == ["COMMIT"])
    }
}
