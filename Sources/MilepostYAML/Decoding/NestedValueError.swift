/// What a type's `init(from:)` throws about one of the values it decoded rather than about itself,
/// so that `YAMLNodeDecoder` reports it at that value: `'command[2]': an argument cannot contain a
/// NUL character`, at the argument's line and column. A type can check the plain values it decoded
/// and still point at the one that is wrong, without decoding each through a wrapper type of its
/// own (a `Decoder` per value). Other decoders report it as an ordinary error.
public struct NestedValueError: Error, CustomStringConvertible, Sendable {
    /// One step from a node to one of its values.
    public enum PathComponent: Sendable {
        /// A sequence's element, from 0.
        case index(Int)
        /// A mapping's value at this key.
        case key(String)
    }

    /// The way to the value, one step per level, from the node of the value whose `init(from:)`
    /// throws this, as a container's `decode` hands it over (from a `superDecoder`, the path is
    /// taken from the node of the container that made it).
    public var path: [PathComponent]
    /// What is wrong with the value, without its path (the decoder puts it in front).
    public var message: String

    /// An error about the value at `path` under the node being decoded.
    public init(at path: [PathComponent], _ message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { message }

    /// The value at `path` under `node`; nil when there is none.
    func value(under node: YAMLNode?) -> YAMLNode? {
        var value = node
        for component in path {
            guard let current = value else { return nil }
            switch component {
            case .index(let index):
                let elements = current.elements
                value = elements.indices.contains(index) ? elements[index] : nil
            case .key(let key):
                value = current[key]
            }
        }
        return value
    }

    /// `path` as coding keys, after `parent`.
    func codingPath(after parent: [any CodingKey]) -> [any CodingKey] {
        parent + path.map { component -> any CodingKey in
            switch component {
            case .index(let index): IndexKey(index)
            case .key(let key): NameKey(key)
            }
        }
    }
}
