/// An unfinished step's mark kept while another step runs before it (`StoredState.setAside`): its
/// interrupted in-progress mark or its failure, with the cursor it resumes at.
///
/// Stored as an object with one key, `interrupted` or `failed`, holding the mark as `in_progress`
/// or `failed` hold it.
public enum SetAsideMark: Codable, Sendable, Equatable {
    case interrupted(InProgressStep)
    case failed(FailedStep)

    /// The step the mark belongs to.
    public var id: String {
        switch self {
        case .interrupted(let mark): mark.id
        case .failed(let failure): failure.id
        }
    }

    /// The interrupted mark, when this is one.
    public var interrupted: InProgressStep? { if case .interrupted(let mark) = self { mark } else { nil } }

    /// The failure, when this is one.
    public var failure: FailedStep? { if case .failed(let failure) = self { failure } else { nil } }

    private enum CodingKeys: String, CodingKey {
        case interrupted, failed
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        guard container.allKeys.count == 1 else {
            throw DecodingError.dataCorrupted(.init(
                codingPath: decoder.codingPath, debugDescription: "a set-aside mark has exactly one key, interrupted or failed"))
        }
        if container.contains(.interrupted) {
            self = .interrupted(try container.decode(InProgressStep.self, forKey: .interrupted))
        } else {
            self = .failed(try container.decode(FailedStep.self, forKey: .failed))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .interrupted(let mark): try container.encode(mark, forKey: .interrupted)
        case .failed(let failure): try container.encode(failure, forKey: .failed)
        }
    }
}
