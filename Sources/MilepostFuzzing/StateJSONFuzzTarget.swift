import Milepost

extension FuzzTarget {
    /// `state.json` as a crash, a disk or another writer can leave it, read as the file store reads
    /// it: by the pre-start fast path's scan of its head, and by the full decoder.
    static let stateJSON = FuzzTarget(
        name: "state-json",
        summary: "state.json bytes → StoredStateHead(json:) and StoredState.decode; a head the fast path could answer with "
            + "is one the full decoder reads the same; a decoded state encodes and decodes back to itself"
    ) { bytes in
        let decoded = Result { () throws(StoreError) in try StoredState.decode(json: bytes, location: "state.json") }
        try checkHead(StoredStateHead(json: bytes), against: decoded.map { Optional($0) })
        guard case .success(let state) = decoded else { return }
        try checkRoundTrip(state)
    }

    /// The fast path's head against the full reader's reading of the same files: when the head is
    /// one `Runner.upToDate` could answer a run with (at its own version, with its own manifest
    /// digest), the full reader must read a state with the same head — else the fast path would
    /// answer "up to date" where a run refuses the state or reads another. A head it could not
    /// answer with (a step in progress, no digest) makes the fast path decline: nothing to check.
    static func checkHead(_ head: StoredStateHead?, against full: Result<StoredState?, StoreError>) throws(FuzzFinding) {
        guard let head, decider.upToDate(head, at: head.version, manifest: head.plannedWith) != nil else { return }
        switch full {
        case .success(let state?):
            try oracle(state.head == head, "the fast path would answer with \(head), the full reader reads \(state.head)")
        case .success(nil):
            throw FuzzFinding("the fast path would answer with \(head) where the full reader finds no state")
        case .failure(let error):
            throw FuzzFinding("the fast path would answer with \(head) where the full reader refuses the state: \(error)")
        }
    }

    /// The up-to-date rule of the fast path and of `Runner.run` (`Runner.upToDate`); its store is never read.
    private static let decider = Runner(store: FileStore(path: "/nonexistent"))

    /// `state` as every store writes it decodes back to `state`, and its head scans as `state.head`
    /// (or the scan declines).
    static func checkRoundTrip(_ state: StoredState) throws(FuzzFinding) {
        let json = state.json
        let again: StoredState
        do {
            again = try StoredState.decode(json: json, location: "state.json")
        } catch {
            throw FuzzFinding("the state written does not read back: \(error)")
        }
        try oracle(again == state, "the state written does not read back as itself: \(state) → \(again)")
        if let head = StoredStateHead(json: json) {
            try oracle(head == state.head, "the fast path reads the state written as \(head), not \(state.head)")
        }
    }
}
