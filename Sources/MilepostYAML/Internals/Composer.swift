internal import CYAML

/// Drives libyaml's event parser and builds a `YAMLStorage`: one iterative loop with an
/// explicit stack (no recursion), enforcing every `YAMLLimits` budget as events arrive.
struct Composer {
    private let input: [UInt8]
    private let limits: YAMLLimits

    private var nodes: [RawNode] = []
    private var children: [UInt32] = []
    private var scalars: ScalarBytes
    /// Children of the open collections, innermost last; moved to `children` at each END.
    private var pending: [UInt32] = []
    /// For each entry of `pending`: the alias and merge uses it was reached through; kept only from
    /// the document's first alias or merge key on (`trackUses()`), empty before: most documents have
    /// none, and an empty list per node was 2 % of a big manifest's load (issue 32).
    private var pendingUses: [[AliasUse]] = []
    private var tracksUses = false
    /// The alias and merge uses of the entries of `children` that came through any, by position.
    private var childUses: [UInt32: [AliasUse]] = [:]
    /// The columns too large for their node, by node index (see `RawNode`).
    private var longColumns: [UInt32: Int] = [:]
    private var stack: [Frame] = []
    private var anchors: [String: Anchor] = [:]
    private var keyScratch: [Int] = []
    private var errors: [YAMLError] = []
    private var root: UInt32?
    private var documents = 0
    private var expandedNodes = 0
    private var expandedBytes = 0

    private struct Frame {
        var node: UInt32
        var pendingStart: Int
        /// Nodes and scalar bytes of the subtree so far, aliases counted expanded.
        var subtreeNodes = 1
        var subtreeBytes = 0
        var anchor: String?
    }

    private enum Anchor {
        case open
        case closed(node: UInt32, nodes: Int, bytes: Int)
    }

    /// Parsing stops at the first error that makes the rest meaningless or too costly.
    private struct Stop: Error {}

    init(input: [UInt8], limits: YAMLLimits) {
        self.input = input
        self.limits = limits
        self.scalars = ScalarBytes(source: input)
    }

    // MARK: - Entry point

    /// Composes the single document of `input`; the storage and root, or every error found.
    mutating func compose() -> Result<(YAMLStorage, root: Int?), YAMLErrors> {
        // Offsets are stored as UInt32 and run over the source and the copied scalars after it, which
        // can be up to 1.5× the source (`\L` → 3 bytes): 2.5× the source at most.
        let maxBytes = min(limits.maxDocumentBytes, Int(UInt32.max) / 5 * 2)
        if input.count > maxBytes {
            let message = "the document is \(input.count) bytes, more than the limit of \(maxBytes) bytes"
            return .failure(YAMLErrors([YAMLError(message, at: nil)]))
        }
        if !input.isEmpty {
            do { try runEventLoop() } catch { checkOpenMappings() }
        }
        if !errors.isEmpty {
            return .failure(YAMLErrors(errors.sorted(by: Self.sourceOrder)))
        }
        let storage = YAMLStorage(nodes: nodes, children: children, scalars: scalars, uses: childUses, longColumns: longColumns)
        return .success((storage, root.map(Int.init)))
    }

    private static func sourceOrder(_ a: YAMLError, _ b: YAMLError) -> Bool {
        switch (a.location, b.location) {
        case let (a?, b?): a < b
        case (nil, _?): true
        default: false
        }
    }

    private mutating func runEventLoop() throws(Stop) {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else {
            errors.append(YAMLError("libyaml could not allocate its parser", at: nil))
            return
        }
        defer { yaml_parser_delete(&parser) }
        let input = self.input
        try input.withUnsafeBufferPointer { (buffer) throws(Stop) in
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            var event = yaml_event_t()
            var done = false
            while !done {
                guard yaml_parser_parse(&parser, &event) == 1 else {
                    errors.append(LibYAMLError.error(from: parser, input: input))
                    throw Stop()
                }
                defer { yaml_event_delete(&event) }
                done = try handle(&event, in: buffer)
            }
        }
    }

    // MARK: - Events

    /// Handles one event of the source in `buffer`; true at the end of the stream.
    private mutating func handle(_ event: inout yaml_event_t, in buffer: UnsafeBufferPointer<UInt8>) throws(Stop) -> Bool {
        let location = Self.location(event.start_mark)
        switch event.type {
        case YAML_STREAM_END_EVENT:
            return true
        case YAML_DOCUMENT_START_EVENT:
            documents += 1
            if documents > 1 {
                errors.append(YAMLError("a manifest must be exactly one YAML document; a second one starts here", at: location))
                throw Stop()
            }
        case YAML_SCALAR_EVENT:
            let scalar = event.data.scalar
            let length = scalar.length
            let style = Self.style(scalar.style)
            let start = scalars.append(
                UnsafeBufferPointer(start: scalar.value, count: length), at: Self.verbatimOffset(event.start_mark, style), in: buffer)
            let index = appendNode(.scalar, style: style, at: location, start: start, count: UInt32(length))
            nodes[Int(index)].tag = tag(scalar.tag, for: index, at: location)
            attach(index, nodes: 1, bytes: length, uses: [])
            if let anchor = Self.name(scalar.anchor) {
                anchors[anchor] = .closed(node: index, nodes: 1, bytes: length)
            }
        case YAML_SEQUENCE_START_EVENT:
            try open(.sequence, tag: event.data.sequence_start.tag, anchor: event.data.sequence_start.anchor, at: location)
        case YAML_MAPPING_START_EVENT:
            try open(.mapping, tag: event.data.mapping_start.tag, anchor: event.data.mapping_start.anchor, at: location)
        case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
            close()
        case YAML_ALIAS_EVENT:
            try alias(Self.name(event.data.alias.anchor) ?? "", at: location)
        default:
            break
        }
        return false
    }

    private mutating func open(
        _ kind: YAMLNode.Kind, tag: UnsafeMutablePointer<yaml_char_t>?,
        anchor: UnsafeMutablePointer<yaml_char_t>?, at location: SourceLocation
    ) throws(Stop) {
        if stack.count >= limits.maxDepth {
            errors.append(YAMLError("nesting is deeper than the limit of \(limits.maxDepth) levels", at: location))
            throw Stop()
        }
        let index = appendNode(kind, style: .plain, at: location, start: 0, count: 0)
        nodes[Int(index)].tag = self.tag(tag, for: index, at: location)
        let name = Self.name(anchor)
        if let name { anchors[name] = .open }
        stack.append(Frame(node: index, pendingStart: pending.count, anchor: name))
    }

    private mutating func close() {
        let frame = stack.removeLast()
        let index = Int(frame.node)
        if nodes[index].kind == .mapping {
            checkKeys(pending[frame.pendingStart...])
            mergeKeys(from: frame.pendingStart)
        }
        nodes[index].start = UInt32(children.count)
        nodes[index].count = UInt32(pending.count - frame.pendingStart)
        if tracksUses {
            for (offset, uses) in pendingUses[frame.pendingStart...].enumerated() where !uses.isEmpty {
                childUses[UInt32(children.count + offset)] = uses
            }
            pendingUses.removeLast(pendingUses.count - frame.pendingStart)
        }
        children.append(contentsOf: pending[frame.pendingStart...])
        pending.removeLast(pending.count - frame.pendingStart)
        if let anchor = frame.anchor {
            anchors[anchor] = .closed(node: frame.node, nodes: frame.subtreeNodes, bytes: frame.subtreeBytes)
        }
        attach(frame.node, nodes: frame.subtreeNodes, bytes: frame.subtreeBytes, uses: [])
    }

    private mutating func alias(_ name: String, at location: SourceLocation) throws(Stop) {
        switch anchors[name] {
        case nil:
            errors.append(YAMLError("undefined alias '*\(name)'", at: location))
            attachPlaceholder(at: location)
        case .open:
            errors.append(YAMLError("alias '*\(name)' refers to a node that contains it (recursive alias)", at: location))
            attachPlaceholder(at: location)
        case .closed(let node, let subtreeNodes, let subtreeBytes):
            expandedNodes += subtreeNodes
            expandedBytes += subtreeBytes
            if expandedNodes > limits.maxAliasExpansionNodes {
                errors.append(YAMLError(
                    "aliases expand to more than \(limits.maxAliasExpansionNodes) nodes (alias '*\(name)')", at: location))
                throw Stop()
            }
            if expandedBytes > limits.maxAliasExpansionBytes {
                errors.append(YAMLError(
                    "aliases expand to more than \(limits.maxAliasExpansionBytes) bytes of scalars (alias '*\(name)')",
                    at: location))
                throw Stop()
            }
            trackUses()
            attach(node, nodes: subtreeNodes, bytes: subtreeBytes, uses: [AliasUse(location: location, merged: false)])
        }
    }

    /// Keeps the uses of `pending`'s entries from now on: every entry so far came through none.
    private mutating func trackUses() {
        guard !tracksUses else { return }
        tracksUses = true
        pendingUses = Array(repeating: [], count: pending.count)
    }

    // MARK: - Merge keys

    /// Applies the YAML 1.1 merge keys (`<<: *a`, `<<: [*a, *b]`) of the mapping whose entries start
    /// at `start` in `pending`: the `<<` entries are replaced by the pairs of the merged mappings whose
    /// keys the mapping does not set itself, earlier mappings winning over later ones. A merged pair
    /// remembers the alias it came through, so errors about it can point at the use as well as the anchor.
    private mutating func mergeKeys(from start: Int) {
        let entries = stride(from: start, to: pending.count, by: 2)
        guard entries.contains(where: { isMergeKey(Int(pending[$0])) }) else { return }
        trackUses()
        var kept: [UInt32] = []
        var keptUses: [[AliasUse]] = []
        var sources: [(node: UInt32, uses: [AliasUse])] = []
        var present = Set<[UInt8]>()
        for position in entries {
            let key = Int(pending[position])
            if isMergeKey(key) {
                sources += mergeSources(pending[position + 1], uses: pendingUses[position + 1])
            } else {
                kept += [pending[position], pending[position + 1]]
                keptUses += [pendingUses[position], pendingUses[position + 1]]
                if nodes[key].kind == .scalar { present.insert(scalarBytes(key)) }
            }
        }
        for source in sources {
            let node = nodes[Int(source.node)]
            for slot in stride(from: Int(node.start), to: Int(node.start + node.count), by: 2) {
                let key = Int(children[slot])
                guard nodes[key].kind == .scalar, present.insert(scalarBytes(key)).inserted else { continue }
                let merged = source.uses.map { AliasUse(location: $0.location, merged: true) }
                kept += [children[slot], children[slot + 1]]
                keptUses += [merged + (childUses[UInt32(slot)] ?? []), merged + (childUses[UInt32(slot + 1)] ?? [])]
            }
        }
        pending.replaceSubrange(start..., with: kept)
        pendingUses.replaceSubrange(start..., with: keptUses)
    }

    /// The mappings a `<<` value merges: itself, or the elements of a sequence of mappings.
    private mutating func mergeSources(_ value: UInt32, uses: [AliasUse]) -> [(node: UInt32, uses: [AliasUse])] {
        switch nodes[Int(value)].kind {
        case .mapping:
            return [(value, uses)]
        case .sequence:
            let node = nodes[Int(value)]
            return (Int(node.start)..<Int(node.start + node.count)).compactMap { slot in
                let element = children[slot]
                guard nodes[Int(element)].kind == .mapping else {
                    errors.append(YAMLError("a merge key ('<<') takes a mapping or a list of mappings", at: location(of: Int(element))))
                    return nil
                }
                return (element, uses + (childUses[UInt32(slot)] ?? []))
            }
        case .scalar:
            errors.append(YAMLError("a merge key ('<<') takes a mapping or a list of mappings", at: location(of: Int(value))))
            return []
        }
    }

    /// A plain, untagged `<<` key (a quoted `"<<"` is an ordinary key).
    private func isMergeKey(_ index: Int) -> Bool {
        let node = nodes[index]
        return node.kind == .scalar && node.style == .plain && node.tag == .none && node.count == 2
            && scalars.withBytes(node.start, node.count) { $0[0] == UInt8(ascii: "<") && $0[1] == UInt8(ascii: "<") }
    }

    private func scalarBytes(_ index: Int) -> [UInt8] {
        let node = nodes[index]
        return scalars.withBytes(node.start, node.count) { Array($0) }
    }

    // MARK: - Nodes

    private mutating func appendNode(
        _ kind: YAMLNode.Kind, style: YAMLNode.ScalarStyle, at location: SourceLocation, start: UInt32, count: UInt32
    ) -> UInt32 {
        let column = UInt32(clamping: location.column)
        nodes.append(RawNode(
            kind: kind, style: style, tag: .none, line: UInt32(clamping: location.line), column: column, start: start, count: count))
        if column >= RawNode.longColumn { longColumns[UInt32(nodes.count - 1)] = Int(column) }
        return UInt32(nodes.count - 1)
    }

    /// Makes `node` the next child of the innermost open collection, or the root.
    private mutating func attach(_ node: UInt32, nodes subtreeNodes: Int, bytes subtreeBytes: Int, uses: [AliasUse]) {
        guard !stack.isEmpty else {
            root = node
            return
        }
        pending.append(node)
        if tracksUses { pendingUses.append(uses) }
        stack[stack.count - 1].subtreeNodes += subtreeNodes
        stack[stack.count - 1].subtreeBytes += subtreeBytes
    }

    /// Stands in for an alias that cannot be resolved, so composition goes on to find more errors.
    private mutating func attachPlaceholder(at location: SourceLocation) {
        let index = appendNode(.scalar, style: .plain, at: location, start: 0, count: 0)
        attach(index, nodes: 1, bytes: 0, uses: [])
    }

    // MARK: - Checks

    /// Refuses non-scalar keys and duplicate keys (equal text) among `entries` (key, value, key…).
    private mutating func checkKeys(_ entries: ArraySlice<UInt32>) {
        keyScratch.removeAll(keepingCapacity: true)
        for position in stride(from: entries.startIndex, to: entries.endIndex, by: 2) {
            let key = Int(entries[position])
            if nodes[key].kind == .scalar {
                keyScratch.append(key)
            } else {
                let kind = nodes[key].kind == .sequence ? "a sequence" : "a mapping"
                errors.append(YAMLError("a mapping key must be a scalar, not \(kind)", at: location(of: key)))
            }
        }
        guard keyScratch.count > 1 else { return }
        let (nodes, scalars) = (self.nodes, self.scalars)
        // A mapping of a few keys (a step's, its parameters'): whether any two are equal, each key
        // against those before it, mostly told apart by length; sorting them cost 3 % of a big
        // manifest's load (issue 32). Only a mapping with duplicates goes on to the sort.
        if keyScratch.count <= 16 {
            let duplicated = keyScratch.indices.contains { position in
                keyScratch[..<position].contains { scalars.equal(nodes[$0], nodes[keyScratch[position]]) }
            }
            guard duplicated else { return }
        }
        // Sort by text, then node index (source order): the first of a run is the first definition.
        keyScratch.sort { a, b in
            let order = scalars.compare(nodes[a], nodes[b])
            return order != 0 ? order < 0 : a < b
        }
        var first = keyScratch[0]
        for key in keyScratch.dropFirst() {
            if scalars.compare(nodes[first], nodes[key]) != 0 {
                first = key
                continue
            }
            errors.append(YAMLError(
                "duplicate key '\(text(of: key))'", at: location(of: key),
                notes: [YAMLError.Note("first defined here", at: location(of: first))]))
        }
    }

    /// Checks the keys of mappings left open when parsing stops, so their duplicates are reported too.
    private mutating func checkOpenMappings() {
        for (depth, frame) in stack.enumerated() where nodes[Int(frame.node)].kind == .mapping {
            let end = depth + 1 < stack.count ? stack[depth + 1].pendingStart : pending.count
            checkKeys(pending[frame.pendingStart..<end])
        }
    }

    /// Validates an explicit tag against the node it is on.
    private mutating func tag(_ raw: UnsafeMutablePointer<yaml_char_t>?, for index: UInt32, at location: SourceLocation) -> CoreTag {
        guard let raw else { return .none }
        let written = String(cString: raw)
        let coreTag: CoreTag? =
            switch written {
            case "!": .nonSpecific
            case "tag:yaml.org,2002:str": .str
            case "tag:yaml.org,2002:int": .int
            case "tag:yaml.org,2002:float": .float
            case "tag:yaml.org,2002:bool": .bool
            case "tag:yaml.org,2002:null": .null
            case "tag:yaml.org,2002:seq": .seq
            case "tag:yaml.org,2002:map": .map
            default: nil
            }
        guard let coreTag, let shorthand = coreTag.shorthand else {
            let shown = written.hasPrefix(Self.corePrefix) ? "!!" + written.dropFirst(Self.corePrefix.count) : written
            errors.append(YAMLError(
                "unsupported tag '\(shown)'; only '!' and the core tags !!str, !!int, !!float, !!bool, !!null, !!seq and !!map are allowed",
                at: location))
            return .none
        }
        let kind = nodes[Int(index)].kind
        let fits =
            switch coreTag {
            case .nonSpecific: true
            case .seq: kind == .sequence
            case .map: kind == .mapping
            case .str, .int, .float, .bool, .null, .none: kind == .scalar
            }
        guard fits else {
            let what = kind == .scalar ? "a scalar" : kind == .sequence ? "a sequence" : "a mapping"
            errors.append(YAMLError("tag '\(shorthand)' cannot be applied to \(what)", at: location))
            return .none
        }
        if kind == .scalar {
            let node = nodes[Int(index)]
            let valid = scalars.withBytes(node.start, node.count) { CoreScalar.resolve($0, taggedAs: coreTag) != nil }
            if !valid {
                errors.append(YAMLError("'\(text(of: Int(index)))' is not a valid \(shorthand)", at: location))
            }
        }
        return coreTag
    }

    private static let corePrefix = "tag:yaml.org,2002:"

    // MARK: - Conversions

    private func text(of index: Int) -> String {
        let node = nodes[index]
        return scalars.withBytes(node.start, node.count) { String(decoding: $0, as: UTF8.self) }
    }

    private func location(of index: Int) -> SourceLocation {
        nodes[index].location(index, longColumns: longColumns)
    }

    static func location(_ mark: yaml_mark_t) -> SourceLocation {
        SourceLocation(line: mark.line + 1, column: mark.column + 1)
    }

    /// Where a plain or quoted scalar's value would be in the source if written verbatim: at its
    /// start mark, after the opening quote. libyaml counts the mark in characters, which are bytes
    /// up to the first non-ASCII one; `ScalarBytes.append` checks the bytes are there.
    private static func verbatimOffset(_ mark: yaml_mark_t, _ style: YAMLNode.ScalarStyle) -> Int? {
        switch style {
        case .plain: mark.index
        case .singleQuoted, .doubleQuoted: mark.index + 1
        case .literal, .folded: nil
        }
    }

    private static func name(_ anchor: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        anchor.map { String(cString: $0) }
    }

    private static func style(_ style: yaml_scalar_style_t) -> YAMLNode.ScalarStyle {
        switch style {
        case YAML_SINGLE_QUOTED_SCALAR_STYLE: .singleQuoted
        case YAML_DOUBLE_QUOTED_SCALAR_STYLE: .doubleQuoted
        case YAML_LITERAL_SCALAR_STYLE: .literal
        case YAML_FOLDED_SCALAR_STYLE: .folded
        default: .plain
        }
    }
}
