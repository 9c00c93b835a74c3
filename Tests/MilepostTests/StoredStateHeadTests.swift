import Testing
@testable import Milepost

/// The pre-start scan of `state.json` (`StoredStateHead`) against the full decoding.
@Suite struct StoredStateHeadTests {
    static let completed = #"{"at": "2026-01-02T03:04:05.678Z", "fingerprint": "sha256:ab", "id": "1/a", "run": "r1", "via": null}"#

    /// States the scan takes: it must agree with the full decoding on every field it reads.
    @Test(arguments: [
        #"{"format": 1, "app": "titi", "version": "2.1", "completed": [], "updated_at": "2026-01-02T03:04:05.678Z"}"#,
        #"{"format":1,"version":"2.1","completed":[\#(completed),\#(completed)],"updated_at":"2026-01-02T03:04:05.678Z"}"#,
        #" { "updated_at" : "2026-01-02T03:04:05.678Z" , "completed" : [ ] , "version" : "0" , "format" : 1 , "app" : null } "#,
        #"{"format": 1, "version": "3", "completed": [], "updated_at": "2026-01-02T03:04:05.678Z", "in_progress": {"id": "3/a", "run": "r", "since": "2026-01-02T03:04:05.678Z", "attempt": 1, "host": "h", "pid": 7}}"#,
        #"{"format": 1, "version": "3", "completed": [], "updated_at": "2026-01-02T03:04:05.678Z", "failed": {"id": "3/a", "run": "r", "at": "2026-01-02T03:04:05.678Z", "error": "d\u00e9j\u00e0\n\"vu\""}, "extra": [1, -2.5e3, true, false, null, {}]}"#,
        "{\"format\": 1, \"app\": \"caf\u{e9}\", \"version\": \"1.0-beta\", \"completed\": [], \"updated_at\": \"2026-01-02T03:04:05.678Z\"}",
        #"{"format": 1, "version": "3", "completed": [{"at": "2026-01-02T03:04:05.678Z", "fingerprint": "f", "id": "1/a", "run": "r", "via": "resolved", "note": [1]}], "updated_at": "2026-01-02T03:04:05.678Z", "failed": {"id": "3/a", "run": "r", "at": "2026-01-02T03:04:05.678Z", "error": "\ud83d\ude00", "direction": "revert", "phase": "contract", "cursor": null}, "floor": {"version": "2.0", "step": "2.0/drop"}, "set_aside": [], "planned_with": {"digest": "d", "files": []}}"#,
    ])
    func agreesWithTheFullDecoding(json: String) throws {
        let bytes = Array(json.utf8)
        let head = try #require(StoredStateHead(json: bytes))
        #expect(head == (try StoredState.decode(json: bytes, location: "state.json")).head)
    }

    /// What the scan does not vouch for gives nil, so the caller decodes fully and reports.
    @Test(arguments: [
        "",
        "[]",
        #"{"format": 1, "version": "2.1", "completed": [], "updated_at": "2026-01-02T03:04:05.678Z""#,
        #"{"format": 1, "version": "2.1", "completed": [], "updated_at": "2026-01-02T03:04:05.678Z"} x"#,
        #"{"format": 2, "version": "2.1", "completed": [], "updated_at": "2026-01-02T03:04:05.678Z"}"#,
        #"{"format": 0, "version": "2.1", "completed": [], "updated_at": "2026-01-02T03:04:05.678Z"}"#,
        #"{"format": 1.0, "version": "2.1", "completed": [], "updated_at": "2026-01-02T03:04:05.678Z"}"#,
        #"{"format": 01, "version": "2.1", "completed": [], "updated_at": "2026-01-02T03:04:05.678Z"}"#,
        #"{"format": 1, "version": "2\u002e1", "completed": [], "updated_at": "2026-01-02T03:04:05.678Z"}"#,
        #"{"format": 1, "version": "2.1", "version": "2.2", "completed": [], "updated_at": "2026-01-02T03:04:05.678Z"}"#,
        #"{"format": 1, "version": 2, "completed": [], "updated_at": "2026-01-02T03:04:05.678Z"}"#,
        #"{"format": 1, "version": "not a version", "completed": [], "updated_at": "2026-01-02T03:04:05.678Z"}"#,
        #"{"format": 1, "version": "2.1", "updated_at": "2026-01-02T03:04:05.678Z"}"#,
        #"{"format": 1, "version": "2.1", "completed": {}, "updated_at": "2026-01-02T03:04:05.678Z"}"#,
        #"{"format": 1, "version": "2.1", "completed": [], "updated_at": 5}"#,
        #"{"format": 1, "version": "2.1", "completed": [], "updated_at": "2026-01-02 03:04:05Z"}"#,
        #"{"format": 1, "version": "2.1", "completed": [], "updated_at": "2026-13-02T03:04:05.678Z"}"#,
        #"{"format": 1, "version": "2.1", "completed": [1,], "updated_at": "2026-01-02T03:04:05.678Z"}"#,
        #"{"format": 1, "version": "2.1", "completed": [], "updated_at": "2026-01-02T03:04:05.678Z", "failed": tru}"#,
        #"{"format": 1, "version": "2.1", "completed": [], "updated_at": "2026-01-02T03:04:05.678Z", "failed": "\q"}"#,
        #"{"format": 1, "version": "2.1", "completed": [], "updated_at": "2026-01-02T03:04:05.678Z", "in_progress": 3}"#,
        #"{"format": 1, "version": "2.1", "completed": [], "updated_at": "2026-01-02T03:04:05.678Z", "failed": "x"}"#,
        #"{"format": 1, "version": "2.1", "completed": [], "updated_at": "2026-01-02T03:04:05.678Z", "failed": 5}"#,
        // What the decoder refuses in a member the head does not keep (issue 47: the fast path answered for such a state).
        #"{"format": 1, "version": "2.1", "completed": [{"at": "2026-01-02T03:04:05.678Z", "id": "1/a", "run": "r"}], "updated_at": "2026-01-02T03:04:05.678Z"}"#,
        #"{"format": 1, "version": "2.1", "completed": [{"at": "yesterday", "fingerprint": "f", "id": "1/a", "run": "r"}], "updated_at": "2026-01-02T03:04:05.678Z"}"#,
        #"{"format": 1, "version": "2.1", "completed": [{"at": "2026-01-02T03:04:05.678Z", "fingerprint": 7, "id": "1/a", "run": "r"}], "updated_at": "2026-01-02T03:04:05.678Z"}"#,
        #"{"format": 1, "version": "2.1", "completed": [{"at": "2026-01-02T03:04:05.678Z", "fingerprint": "f", "id": "\ud800", "run": "r"}], "updated_at": "2026-01-02T03:04:05.678Z"}"#,
        #"{"format": 1, "version": "2.1", "completed": [1], "updated_at": "2026-01-02T03:04:05.678Z"}"#,
        #"{"format": 1, "version": "2.1", "completed": [], "updated_at": "2026-01-02T03:04:05.678Z", "failed": {"id": "2.1/a", "run": "r", "at": "2026-01-02T03:04:05.678Z", "error": "e", "direction": "sideways"}}"#,
        #"{"format": 1, "version": "2.1", "completed": [], "updated_at": "2026-01-02T03:04:05.678Z", "floor": {"version": "not a version"}}"#,
        #"{"format": 1, "version": "2.1", "completed": [], "updated_at": "2026-01-02T03:04:05.678Z", "set_aside": [{"failed": {}}]}"#,
    ])
    func declines(json: String) {
        #expect(StoredStateHead(json: Array(json.utf8)) == nil)
    }

    @Test func declinesInvalidUTF8InAFieldItKeeps() {
        let bytes = Array(#"{"format": 1, "version": "2."#.utf8) + [0xFF] + Array(#"", "completed": [], "updated_at": "2026-01-02T03:04:05.678Z"}"#.utf8)
        #expect(StoredStateHead(json: bytes) == nil)
    }

    /// A surrogate (U+D800) written as UTF-8 in a completed step's id: the decoder refuses it.
    @Test func declinesInvalidUTF8InAMemberItChecks() {
        let bytes = Array(#"{"format": 1, "version": "2.1", "completed": [{"at": "2026-01-02T03:04:05.678Z", "fingerprint": "f", "run": "r", "id": ""#.utf8)
            + [0xED, 0xA0, 0x80] + Array(#""}], "updated_at": "2026-01-02T03:04:05.678Z"}"#.utf8)
        #expect(StoredStateHead(json: bytes) == nil)
        #expect(throws: StoreError.self) { try StoredState.decode(json: bytes, location: "state.json") }
    }

    @Test func declinesNestingDeeperThanAStateNeeds() {
        let deep = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        #expect(StoredStateHead(json: Array(#"{"format": 1, "version": "1", "completed": [], "updated_at": "2026-01-02T03:04:05.678Z", "x": \#(deep)}"#.utf8)) == nil)
    }

    /// The scan checks each member of a state.log line's journal records that `JournalRecord`
    /// decodes: a member it let pass with a value the decoder refuses would make the fast path answer
    /// from a line `readState` does not take.
    @Test func checksEveryMemberAJournalRecordDecodes() {
        let checked = Set(Member.journalRecord.map { String(decoding: $0.nameBytes, as: UTF8.self) })
        #expect(checked == Set(JournalRecord.CodingKeys.allCases.map(\.stringValue)))
    }
}
