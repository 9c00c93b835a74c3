/// The fields of a stored state that decide whether a `run` is up to date (`Runner.upToDate`):
/// its format, app, version, whether a step is in progress, and the digest of the manifest it was
/// last planned with.
///
/// The pre-start path reads these from `state.json` with `init?(json:)`, a scan without
/// Foundation that allocates only the strings it keeps: a no-op run must cost next to nothing,
/// and decoding every completed step with `JSONDecoder` was most of its work (docs/performance.md).
/// A head it gives is one the full decoder reads the same, so the fast path never answers for a
/// state a run would refuse: the scan checks the JSON's syntax (strings' escapes and UTF-8
/// included) and every member the decoder decodes without the head needing it — each completed
/// step, the failed step, the compatibility floor, a log line's journal records — for the type the
/// decoder wants (`Member`). A step in progress or a revert is only checked for being an object:
/// the fast path does not answer for such a state. Whatever the scan does not take (escapes in the
/// fields it keeps or in a timestamp, a duplicate key, an unknown format, an invalid version, a
/// number where it wants a plain integer, a set-aside mark) gives nil, and the caller decodes
/// fully. The `state-json` and `state-log` fuzz targets hold the scan to the decoder.
///
/// `package`, as the entry points that use it (`Runner.upToDate`,
/// `MilepostStore.stateHeadReader`): the fast path is the CLI's; an application calls
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
                guard !hasOffset, checkInteger(in: 0...Int.max) else { return nil }
                hasOffset = true
            case "records":
                guard !hasRecords, checkArray(of: Member.journalRecord) else { return nil }
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
                    if !literal("null") { guard checkObject(Member.failedStep) else { return nil } }
                case "completed":
                    guard checkArray(of: Member.completedStep) else { return nil }
                    hasCompleted = true
                case "floor":
                    if !literal("null") { guard checkObject(Member.compatibilityFloor) else { return nil } }
                case "set_aside":
                    // Marks set aside hold whole steps in progress: rare, and left to the decoder.
                    if !literal("null") {
                        guard take(UInt8(ascii: "[")) else { return nil }
                        skipSpace()
                        guard take(UInt8(ascii: "]")) else { return nil }
                    }
                case "updated_at":
                    guard timestamp() else { return nil }
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

    // MARK: - Members the decoder decodes and the head does not keep

    /// `[` then objects of `members`, `,`-separated, then `]`.
    mutating func checkArray(of members: [Member]) -> Bool {
        guard take(UInt8(ascii: "[")) else { return false }
        skipSpace()
        if take(UInt8(ascii: "]")) { return true }
        repeat {
            skipSpace()
            guard checkObject(members) else { return false }
            skipSpace()
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "]"))
    }

    /// An object as the decoder of `members`' type reads it: each of `members` at most once (the
    /// decoder would take the first of two) and of its kind, every required one present; any
    /// other member skipped, as the decoder skips it.
    mutating func checkObject(_ members: [Member]) -> Bool {
        guard take(UInt8(ascii: "{")) else { return false }
        var seen: UInt32 = 0
        skipSpace()
        if !take(UInt8(ascii: "}")) {
            repeat {
                skipSpace()
                guard let key = plainKey() else { return false }
                skipSpace()
                guard take(UInt8(ascii: ":")) else { return false }
                skipSpace()
                if let found = members.firstIndex(where: { key.elementsEqual($0.nameBytes) }) {
                    guard seen & 1 << found == 0, check(members[found]) else { return false }
                    seen |= 1 << found
                } else {
                    guard skipValue(depth: 1) else { return false }
                }
                skipSpace()
            } while take(UInt8(ascii: ","))
            guard take(UInt8(ascii: "}")) else { return false }
        }
        return members.indices.allSatisfy { !members[$0].required || seen & 1 << $0 != 0 }
    }

    /// One member's value: of its kind, or null when it is optional.
    mutating func check(_ member: Member) -> Bool {
        if !member.required, literal("null") { return true }
        switch member.kind {
        case .text: return skipString()
        case .timestamp: return timestamp()
        case .version: return plainString().flatMap(Version.init) != nil
        case .integer(let range): return checkInteger(in: range)
        case .rawValue(let accepts): return plainString().map(accepts) == true
        }
    }

    /// A `Timestamp` written without escapes.
    mutating func timestamp() -> Bool {
        let start = index + 1
        return peek == UInt8(ascii: "\"") && skipString()
            && Timestamp(utf8: UnsafeBufferPointer(rebasing: bytes[start..<index - 1])) != nil
    }

    /// The bytes of a key written without escapes (any other key is not one the scan takes).
    mutating func plainKey() -> UnsafeBufferPointer<UInt8>.SubSequence? {
        let start = index + 1
        guard take(UInt8(ascii: "\"")) else { return nil }
        while let byte = peek, byte != UInt8(ascii: "\"") {
            guard byte != UInt8(ascii: "\\"), byte >= 0x20, byte < 0x80 else { return nil }
            index += 1
        }
        guard take(UInt8(ascii: "\"")) else { return nil }
        return bytes[start..<index - 1]
    }

    /// A JSON integer in `range`: an optional minus and digits, no leading zero, no fraction or exponent.
    mutating func checkInteger(in range: ClosedRange<Int>) -> Bool {
        let negative = take(UInt8(ascii: "-"))
        let start = index
        var value = 0
        while let byte = peek, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
            let digit = Int(byte - UInt8(ascii: "0"))
            let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, sumOverflow) = negative ? shifted.subtractingReportingOverflow(digit) : shifted.addingReportingOverflow(digit)
            guard !overflow, !sumOverflow else { return false }
            value = sum
            index += 1
        }
        guard index > start, !(bytes[start] == UInt8(ascii: "0") && index - start > 1) else { return false }
        if let byte = peek, byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") { return false }
        return range.contains(value)
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

    /// A string as the decoder takes it: escapes that name characters (a `\u` surrogate only as
    /// half of a pair), no control character, well-formed UTF-8.
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
                    guard let unit = hexUnit() else { return false }
                    if (0xDC00...0xDFFF).contains(unit) { return false }
                    if (0xD800...0xDBFF).contains(unit) {
                        guard take(UInt8(ascii: "\\")), take(UInt8(ascii: "u")), let low = hexUnit(), (0xDC00...0xDFFF).contains(low)
                        else { return false }
                    }
                } else {
                    guard "\"\\/bfnrt".utf8.contains(escaped) else { return false }
                }
            case ..<0x20: return false
            case ..<0x80: continue
            default:
                guard let length = utf8Length(leading: byte) else { return false }
                index += length - 1
            }
        }
        return false
    }

    /// The four hex digits of a `\u` escape, as a UTF-16 code unit.
    mutating func hexUnit() -> UInt16? {
        guard bytes.count - index >= 4 else { return nil }
        var unit: UInt16 = 0
        for _ in 0..<4 {
            guard let digit = peek, let value = digit.hexValue else { return nil }
            unit = unit << 4 | UInt16(value)
            index += 1
        }
        return unit
    }

    /// The length of the well-formed UTF-8 sequence that `leading`, just taken, starts (its other
    /// bytes from `index` on); nil when it is not one (Unicode 15, table 3-7).
    func utf8Length(leading: UInt8) -> Int? {
        let length: Int
        let second: ClosedRange<UInt8>
        switch leading {
        case 0xC2...0xDF: (length, second) = (2, 0x80...0xBF)
        case 0xE0: (length, second) = (3, 0xA0...0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: (length, second) = (3, 0x80...0xBF)
        case 0xED: (length, second) = (3, 0x80...0x9F)
        case 0xF0: (length, second) = (4, 0x90...0xBF)
        case 0xF1...0xF3: (length, second) = (4, 0x80...0xBF)
        case 0xF4: (length, second) = (4, 0x80...0x8F)
        default: return nil
        }
        guard bytes.count - index >= length - 1, second.contains(bytes[index]) else { return nil }
        for offset in 1..<(length - 1) where !(0x80...0xBF).contains(bytes[index + offset]) { return nil }
        return length
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

/// A member of an object the scan checks for the decoder without keeping it, as the member's
/// type decodes it. The tables repeat what `CompletedStep`, `FailedStep`, `CompatibilityFloor` and
/// `JournalRecord` decode; the `state-json` and `state-log` fuzz targets fail when they differ.
struct Member: Sendable {
    enum Kind: Sendable {
        /// Any string.
        case text
        /// A `Timestamp`, written without escapes.
        case timestamp
        /// A `Version`, written without escapes.
        case version
        /// An integer, in the range of its Swift type.
        case integer(ClosedRange<Int>)
        /// A string, written without escapes, that `accepts` takes (an enum's raw value).
        case rawValue(@Sendable (String) -> Bool)
    }

    let nameBytes: [UInt8]
    let kind: Kind
    /// Present and not null; else it may be absent or null.
    let required: Bool

    init(_ name: String, _ kind: Kind, required: Bool = false) {
        self.nameBytes = Array(name.utf8)
        self.kind = kind
        self.required = required
    }

    static let completedStep = [
        Member("id", .text, required: true), Member("at", .timestamp, required: true), Member("run", .text, required: true),
        Member("fingerprint", .text, required: true), Member("via", .text),
    ]

    static let failedStep = [
        Member("id", .text, required: true), Member("run", .text, required: true), Member("at", .timestamp, required: true),
        Member("error", .text, required: true), Member("cursor", .text), Member("stderr", .text),
        Member("direction", .rawValue { StepDirection(rawValue: $0) != nil }), Member("phase", .rawValue { StepPhase(rawValue: $0) != nil }),
    ]

    static let compatibilityFloor = [Member("version", .version, required: true), Member("step", .text)]

    static let journalRecord = [
        Member("time", .timestamp, required: true), Member("run", .text, required: true),
        Member("event", .rawValue { JournalRecord.Event(rawValue: $0) != nil }, required: true),
        Member("app", .text), Member("from", .text), Member("to", .text), Member("step", .text),
        Member("attempt", .integer(Int.min...Int.max)), Member("duration_ms", .integer(Int.min...Int.max)),
        Member("error", .text), Member("outcome", .rawValue { JournalRecord.Outcome(rawValue: $0) != nil }),
        Member("host", .text), Member("pid", .integer(Int(Int32.min)...Int(Int32.max))), Member("previous_run", .text),
        Member("cursor", .text), Member("stderr", .text), Member("completed", .integer(Int.min...Int.max)),
        Member("total", .integer(Int.min...Int.max)), Member("message", .text),
        Member("phase", .rawValue { StepPhase(rawValue: $0) != nil }), Member("fingerprint", .text), Member("by", .text),
        Member("plan", .text),
    ]
}

extension UInt8 {
    /// The value of a hex digit; nil for any other byte.
    fileprivate var hexValue: UInt8? {
        switch self {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): self - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): self - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): self - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
