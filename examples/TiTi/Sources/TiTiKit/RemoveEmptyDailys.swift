import Milepost

extension TiTiSteps {
    /// `with:` of `removeEmptyDailys`.
    public struct RemoveEmpty: Decodable, Sendable {
        /// How many dailys one batch examines before the file is saved and a cursor committed
        /// (default 100000).
        public var batch: Int?
    }

    /// Deletes the empty dailys of the app's `file` in batches of `batch`, the file saved after each batch
    /// that removed any, then a cursor committed: the number of dailys at the start of the file
    /// known to hold no empty one. An attempt that resumes starts at that position, so a kill
    /// costs at most the batch under way; a kill between the save and the cursor examines one
    /// batch again, which finds nothing left to remove.
    static func removeEmptyDailys(_ context: StepContext<RemoveEmpty>, in file: DailyFile) async throws {
        let batch = context.parameters.batch ?? 100_000
        guard batch > 0 else { throw InvalidBatch(batch: batch) }
        var dailys = try file.load()
        guard let clean = Int(context.resumeCursor ?? "0"), (0...dailys.count).contains(clean) else {
            throw UnusableCursor(cursor: context.resumeCursor ?? "", count: dailys.count)
        }
        if context.resumeCursor != nil {
            context.logger.info("resuming after \(clean) clean dailys", metadata: ["file": "\(file.path)"])
        }
        var position = clean
        var removed = 0
        await context.reportProgress(position, of: dailys.count)
        while position < dailys.count {
            try Task.checkCancellation()
            let end = min(position + batch, dailys.count)
            let kept = dailys[position..<end].filter { !$0.isEmpty }
            if kept.count != end - position {
                dailys.replaceSubrange(position..<end, with: kept)
                try file.save(dailys)
                removed += end - position - kept.count
            }
            position += kept.count
            try await context.commitCursor(String(position))
            await context.reportProgress(position, of: dailys.count, message: "\(removed) empty dailys removed")
        }
        context.logger.info("removed \(removed) empty dailys", metadata: ["file": "\(file.path)"])
    }

    /// `with: {batch: N}` that is not a positive count.
    struct InvalidBatch: Error, CustomStringConvertible {
        var batch: Int
        var description: String { "removeEmptyDailys: 'batch' must be at least 1, found \(batch)" }
    }

    /// A resume cursor that is not a position in the data file (the file was replaced since).
    struct UnusableCursor: Error, CustomStringConvertible {
        var cursor: String
        var count: Int
        var description: String {
            "removeEmptyDailys: the cursor '\(cursor)' is not a position in a file of \(count) dailys; "
                + "run it again from the start (milepost resolve --retry --from-start)"
        }
    }
}
