import Foundation

/// Replaces what changes from one test run to the next — the release (version and commit), times, ages, durations, run ids, pids, the
/// host name and the temporary directory — with stable placeholders. Run ids and pids are numbered
/// in order of appearance (`<run-1>`, `<pid-2>`), so a transcript still shows which is which.
struct GoldenNormalizer {
    let work: String
    let host: String = {
        var buffer = [CChar](repeating: 0, count: 256)
        gethostname(&buffer, buffer.count - 1)
        return String(decoding: buffer.prefix { $0 != 0 }.map(UInt8.init), as: UTF8.self)
    }()
    /// Other text that changes from one test run to the next, with its placeholder: replaced first.
    let replacements: [(text: String, placeholder: String)]
    private var runs: [String: String] = [:]
    private var pids: [String: String] = [:]

    init(work: String, replacing replacements: [(text: String, placeholder: String)] = []) {
        self.work = work
        self.replacements = replacements
    }

    /// `columns`: collapse runs of spaces to two, for tables whose column widths follow the
    /// (varying) lengths of what was replaced.
    mutating func normalize(_ text: String, columns: Bool = false) -> String {
        var text = replacements.reduce(text) { $0.replacingOccurrences(of: $1.text, with: $1.placeholder) }
        text = text.replacingOccurrences(of: work, with: "<work>")
        text = text.replacing(#/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3}Z|[+-]\d{4})/#, with: "<time>")
        text = text.replacing(#/\d+ (s|min|h|days) ago/#, with: "<age> ago")
        text = text.replacing(#/\b(\d+ h \d\d min|\d+ min \d\d s|\d+\.\d s|\d+ ms)\b/#, with: "<duration>")
        text = text.replacing(#/"(duration|median|p95|max|waited)_ms" : \d+/#) { #""\#($0.output.1)_ms" : <ms>"# }
        text = text.replacing(#/"milepost" : \{[^}]*\}/#, with: #""milepost" : <release>"#)
        // A step's process group: the machine's boot and pid namespace, and the group (a pid).
        text = text.replacing(#/"boot_id" : "[^"]*"/#, with: #""boot_id" : "<boot>""#)
        text = text.replacing(#/"pid_namespace" : "[^"]*"/#, with: #""pid_namespace" : "<pid-namespace>""#)
        text = text.replacing(#/"leader_start" : \d+/#, with: #""leader_start" : "<start>""#)
        var runs = self.runs
        text = text.replacing(#/\b[0-9a-f]{12}\b/#) { match in
            let id = String(match.output)
            if runs[id] == nil { runs[id] = "<run-\(runs.count + 1)>" }
            return runs[id]!
        }
        self.runs = runs
        var pids = self.pids
        text = text.replacing(#/(pid |"pid" : |"process_group" : \{\s*"boot_id" : "<boot>",\s*"host" : "[^"]*",\s*"id" : )(\d+)/#) { match in
            let pid = String(match.output.2)
            if pids[pid] == nil { pids[pid] = "<pid-\(pids.count + 1)>" }
            return match.output.1 + pids[pid]!
        }
        self.pids = pids
        let host = host
        text = text.replacing(#/(on |"host" : ")([^\s",]+)/#) { match in
            match.output.2 == host ? match.output.1 + "<host>" : match.output.0
        }
        return columns ? text.replacing(#/  +/#, with: "  ") : text
    }
}
