import FoundationEssentials
import Milepost
import MilepostSystem
import Synchronization
import SystemPackage

extension FuzzTarget {
    /// What an `exec` step's program writes to `MILEPOST_CONTROL_FD`, split into lines as the
    /// runner reads the descriptor.
    static let execControl = FuzzTarget(
        name: "exec-control",
        summary: "control descriptor bytes → ChildControl's lines → ExecControlLine; a cursor or progress line reads back "
            + "as written and its value survives the state's round trip; an unknown line's warning has no control character"
    ) { bytes in
        for line in try await controlLines(bytes) {
            switch ExecControlLine(line) {
            case .cursor(let cursor):
                try oracle(line == "cursor " + cursor, "the line \(line.debugDescription) gives the cursor \(cursor.debugDescription)")
                guard cursor.utf8.count <= StepCursorError.maximumBytes else { continue }
                try checkRoundTrip(inProgress { $0.cursor = cursor })
            case .progress(let completed, let total, let message):
                try oracle(completed >= 0 && total > 0, "the line \(line.debugDescription) gives progress \(completed)/\(total)")
                let written = "progress \(completed)/\(total)" + (message.map { " " + $0 } ?? "")
                try oracle(
                    ExecControlLine(written) == .progress(completed: completed, total: total, message: message),
                    "the progress of \(line.debugDescription), written as \(written.debugDescription), reads back otherwise")
                try checkRoundTrip(inProgress {
                    $0.progress = StepProgress(
                        completed: completed, total: total, message: message, at: Timestamp(millisecondsSince1970: 0), rate: nil)
                })
            case .unknown(let text):
                try oracle(text == line, "the unknown line \(line.debugDescription) is kept as \(text.debugDescription)")
                let warned = String(text.prefix(80)).escapingControlCharacters()
                try oracle(
                    !warned.unicodeScalars.contains(where: \.isControlCharacter), "the warning shows \(warned.debugDescription)")
            }
        }
    }

    /// `bytes` as the lines `ChildControl` hands on when a child writes them to its control descriptor.
    private static func controlLines(_ bytes: [UInt8]) async throws -> [String] {
        try await withStoreDirectory(["control": bytes]) { directory in
            let lines = Mutex<[String]>([])
            let descriptor = try FileDescriptor.open(FilePath(directory + "/control"), .readOnly)
            ChildControl(onLine: { line in lines.withLock { $0.append(line) } }, onEnd: {}, onExit: { _ in })
                .readLines(from: descriptor)
            return lines.withLock { $0 }
        }
    }

    /// A state whose step in progress is changed by `change`.
    private static func inProgress(_ change: (inout InProgressStep) -> Void) -> StoredState {
        var step = InProgressStep(
            id: "1.0/fuzz", run: "fuzz", since: Timestamp(millisecondsSince1970: 0), attempt: 1, host: "fuzz", pid: 1)
        change(&step)
        return StoredState(app: "fuzz", version: "0.9", inProgress: step, updatedAt: Timestamp(millisecondsSince1970: 0))
    }
}
