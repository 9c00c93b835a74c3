/// The fields of a stored state that decide whether a `run` is up to date (`Runner.upToDate`):
/// its format, app, version, whether a step is in progress, and the digest of the manifest it was
/// last planned with.
///
/// The pre-start path reads these from `state.json` with `init?(json:)`, a scan without
/// Foundation that allocates only the two strings it keeps: a no-op run must cost next to nothing,
/// and decoding every completed step with `JSONDecoder` was most of its work (docs/performance.md).
/// The scan checks the JSON's structure and the types of the fields `StoredState` requires
/// (`failed` and `in_progress` null or an object, `updated_at` a `Timestamp`), but not the contents of `completed` or `failed`,
/// the UTF-8 of strings it skips, or the form of numbers it skips: a full run, which decodes the
/// whole state, still reports those. Whatever the scan does not take (escapes in the fields it keeps, a duplicate key,
/// an unknown format, an invalid version, a number where it wants an integer) gives nil, and the
/// caller decodes fully.
///
/// `package`, as the entry points that use it (`Runner.upToDate`,
/// `StateHeadReading.readStateHeadSynchronously()`): the fast path is the CLI's; an application calls
/// `Runner.run`, which makes the same decision.
package struct StoredStateHead: Sendable, Equatable {
    package var format: Int
    package var app: String?
    package var version: Version
    /// True when the state records a step as running (`in_progress` is not null) or a revert as
    /// unfinished (`reverting` is not null): either way a run has work to check.
    package var hasStepInProgress: Bool
    /// `StoredState.plannedWith`.
    package var plannedWith: ManifestDigest?

    package init(format: Int, app: String?, version: Version, hasStepInProgress: Bool, plannedWith: ManifestDigest? = nil) {
        self.format = format
        self.app = app
        self.version = version
        self.hasStepInProgress = hasStepInProgress
        self.plannedWith = plannedWith
    }

    /// The head of `bytes`, a whole `state.json`; nil when the quick scan cannot vouch for it.
    package init?(json bytes: [UInt8]) {
        guard let head = bytes.withUnsafeBufferPointer({ StateHeadScanner(bytes: $0).scanWhole { $0.scanState() } }) else { return nil }
        self = head
    }

    /// The head of the state in `line`, one commit of `state.log` (an object whose `state` key
    /// holds the state as `state.json` does, compact); nil when the quick scan cannot vouch for it.
    init?(logLine line: ArraySlice<UInt8>) {
        guard let head = line.withUnsafeBufferPointer({ StateHeadScanner(bytes: $0).scanWhole { $0.scanLogEntry() } }) else { return nil }
        self = head
    }
}

extension StoredState {
    /// The fields `Runner.upToDate` decides with.
    package var head: StoredStateHead {
        StoredStateHead(
            format: format, app: app, version: version, hasStepInProgress: inProgress != nil || reverting != nil,
            plannedWith: plannedWith)
    }
}

/// A JSON scanner for one object: takes the head's fields, checks the rest's syntax and skips it.
private struct StateHeadScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    /// Deeper nesting than any state needs is left to the full decoder.
    static let maximumDepth = 64

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// `scan` of the whole buffer: nil unless only white space follows what it took.
    consuming func scanWhole(_ scan: (inout StateHeadScanner) -> StoredStateHead?) -> StoredStateHead? {
        skipSpace()
        guard let head = scan(&self) else { return nil }
        skipSpace()
        return index == bytes.count ? head : nil
    }

    /// A `state.log` line (`StateLog.Entry`): an object with `journal_offset` (an integer),
    /// `records` (an array, its syntax checked) and `state`, which `scanState()` takes, each once;
    /// other keys are checked for syntax and skipped. A line the full decoder would not take as a
    /// commit must not answer here either.
    mutating func scanLogEntry() -> StoredStateHead? {
        var head: StoredStateHead?
        var (hasOffset, hasRecords) = (false, false)
        guard take(UInt8(ascii: "{")) else { return nil }
        repeat {
            skipSpace()
            guard let key = plainString() else { return nil }
            skipSpace()
            guard take(UInt8(ascii: ":")) else { return nil }
            skipSpace()
            switch key {
            case "state":
                guard head == nil, let state = scanState() else { return nil }
                head = state
            case "journal_offset":
                guard !hasOffset, digits() > 0 else { return nil }
                hasOffset = true
            case "records":
                guard !hasRecords, peek == UInt8(ascii: "["), skipValue(depth: 0) else { return nil }
                hasRecords = true
            default:
                guard skipValue(depth: 0) else { return nil }
            }
            skipSpace()
        } while take(UInt8(ascii: ","))
        guard take(UInt8(ascii: "}")), hasOffset, hasRecords else { return nil }
        return head
    }

    /// One state object, as `state.json` holds it, from `index` on.
    mutating func scanState() -> StoredStateHead? {
        var format: Int?
        var app: String??
        var version: Version?
        var inProgress: Bool?
        var reverting = false
        var plannedWith: ManifestDigest?
        // The keys taken so far, to refuse a duplicate. An array, not a `Set`: a state has a dozen
        // keys, and the first `Set<String>` of a process costs a scan of every conformance record
        // (`String: Hashable`; ≈ 0.2 M instructions, a tenth of the no-op run, docs/performance.md).
        var seen: [String] = []
        var hasCompleted = false
        var hasUpdatedAt = false
        skipSpace()
        guard take(UInt8(ascii: "{")) else { return nil }
        skipSpace()
        if !take(UInt8(ascii: "}")) {
            repeat {
                skipSpace()
                guard let key = plainString(), !seen.contains(key) else { return nil }
                seen.append(key)
                skipSpace()
                guard take(UInt8(ascii: ":")) else { return nil }
                skipSpace()
                switch key {
                case "format":
                    guard let value = integer() else { return nil }
                    format = value
                case "version":
                    guard let value = plainString().flatMap(Version.init) else { return nil }
                    version = value
                case "app":
                    if literal("null") { app = .some(nil) } else {
                        guard let value = plainString() else { return nil }
                        app = .some(value)
                    }
                case "in_progress":
                    inProgress = !literal("null")
                    if inProgress == true { guard peek == UInt8(ascii: "{"), skipValue(depth: 0) else { return nil } }
                case "reverting":
                    reverting = !literal("null")
                    if reverting { guard peek == UInt8(ascii: "{"), skipValue(depth: 0) else { return nil } }
                case "planned_with":
                    if !literal("null") {
                        guard let value = digest() else { return nil }
                        plannedWith = value
                    }
                case "failed":
                    if !literal("null") { guard peek == UInt8(ascii: "{"), skipValue(depth: 0) else { return nil } }
                case "completed":
                    guard peek == UInt8(ascii: "["), skipValue(depth: 0) else { return nil }
                    hasCompleted = true
                case "updated_at":
                    let start = index + 1
                    guard peek == UInt8(ascii: "\""), skipValue(depth: 0),
                          Timestamp(utf8: UnsafeBufferPointer(rebasing: bytes[start..<index - 1])) != nil
                    else { return nil }
                    hasUpdatedAt = true
                default:
                    guard skipValue(depth: 0) else { return nil }
                }
                skipSpace()
            } while take(UInt8(ascii: ","))
            guard take(UInt8(ascii: "}")) else { return nil }
        }
        guard let format, (1...StoredState.currentFormat).contains(format),
              let version, hasCompleted, hasUpdatedAt
        else { return nil }
        return StoredStateHead(
            format: format, app: app ?? nil, version: version, hasStepInProgress: inProgress == true || reverting,
            plannedWith: plannedWith)
    }

    /// `planned_with`: an object of exactly `digest` (a string) and `files` (strings), each plain.
    mutating func digest() -> ManifestDigest? {
        var digest: String?
        var files: [String]?
        guard take(UInt8(ascii: "{")) else { return nil }
        repeat {
            skipSpace()
            let key = plainString()
            skipSpace()
            guard take(UInt8(ascii: ":")) else { return nil }
            skipSpace()
            switch key {
            case "digest" where digest == nil:
                guard let value = plainString() else { return nil }
                digest = value
            case "files" where files == nil:
                guard take(UInt8(ascii: "[")) else { return nil }
                var names: [String] = []
                skipSpace()
                if !take(UInt8(ascii: "]")) {
                    repeat {
                        skipSpace()
                        guard let name = plainString() else { return nil }
                        names.append(name)
                        skipSpace()
                    } while take(UInt8(ascii: ","))
                    guard take(UInt8(ascii: "]")) else { return nil }
                }
                files = names
            default:
                return nil
            }
            skipSpace()
        } while take(UInt8(ascii: ","))
        guard take(UInt8(ascii: "}")), let digest, let files else { return nil }
        return ManifestDigest(digest: digest, files: files)
    }

    // MARK: - Tokens

    var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    mutating func take(_ byte: UInt8) -> Bool {
        guard peek == byte else { return false }
        index += 1
        return true
    }

    mutating func skipSpace() {
        while let byte = peek, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
    }

    mutating func literal(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard bytes.count - index >= count else { return false }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return false }
        index += count
        return true
    }

    /// A string without escapes, as valid UTF-8; nil for anything else.
    mutating func plainString() -> String? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        let start = index
        while let byte = peek, byte != UInt8(ascii: "\"") {
            guard byte != UInt8(ascii: "\\"), byte >= 0x20 else { return nil }
            index += 1
        }
        guard peek != nil else { return nil }
        defer { index += 1 }
        return String(validating: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
    }

    /// A non-negative integer of at most nine digits without sign, fraction or exponent.
    mutating func integer() -> Int? {
        var value = 0
        let start = index
        while let byte = peek, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte), index - start < 9 {
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
            index += 1
        }
        guard index > start, !(bytes[start] == UInt8(ascii: "0") && index - start > 1) else { return nil }
        if let byte = peek, byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { return nil }
        return value
    }

    // MARK: - Skipping a value, checking its syntax

    mutating func skipValue(depth: Int) -> Bool {
        guard depth < Self.maximumDepth, let byte = peek else { return false }
        switch byte {
        case UInt8(ascii: "{"): return skipContainer(close: UInt8(ascii: "}"), keyed: true, depth: depth)
        case UInt8(ascii: "["): return skipContainer(close: UInt8(ascii: "]"), keyed: false, depth: depth)
        case UInt8(ascii: "\""): return skipString()
        case UInt8(ascii: "t"): return literal("true")
        case UInt8(ascii: "f"): return literal("false")
        case UInt8(ascii: "n"): return literal("null")
        default: return skipNumber()
        }
    }

    mutating func skipContainer(close: UInt8, keyed: Bool, depth: Int) -> Bool {
        index += 1
        skipSpace()
        if take(close) { return true }
        repeat {
            skipSpace()
            if keyed {
                guard skipString() else { return false }
                skipSpace()
                guard take(UInt8(ascii: ":")) else { return false }
                skipSpace()
            }
            guard skipValue(depth: depth + 1) else { return false }
            skipSpace()
        } while take(UInt8(ascii: ","))
        return take(close)
    }

    mutating func skipString() -> Bool {
        guard take(UInt8(ascii: "\"")) else { return false }
        while let byte = peek {
            index += 1
            switch byte {
            case UInt8(ascii: "\""): return true
            case UInt8(ascii: "\\"):
                guard let escaped = peek else { return false }
                index += 1
                if escaped == UInt8(ascii: "u") {
                    guard bytes.count - index >= 4 else { return false }
                    for _ in 0..<4 {
                        guard let digit = peek, digit.isHexDigit else { return false }
                        index += 1
                    }
                } else {
                    guard "\"\\/bfnrt".utf8.contains(escaped) else { return false }
                }
            case ..<0x20: return false
            default: continue
            }
        }
        return false
    }

    mutating func skipNumber() -> Bool {
        _ = take(UInt8(ascii: "-"))
        guard digits() > 0 else { return false }
        if take(UInt8(ascii: ".")) { guard digits() > 0 else { return false } }
        if take(UInt8(ascii: "e")) || take(UInt8(ascii: "E")) {
            if !take(UInt8(ascii: "+")) { _ = take(UInt8(ascii: "-")) }
            guard digits() > 0 else { return false }
        }
        return true
    }

    mutating func digits() -> Int {
        let start = index
        while let byte = peek, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { index += 1 }
        return index - start
    }
}

extension UInt8 {
    fileprivate var isHexDigit: Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(self)
    }
}
