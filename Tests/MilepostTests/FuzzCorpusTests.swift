import Foundation
import Milepost
import Testing

/// Replays every file of `fuzz/corpus` (the fuzzer's seeds and any input that once crashed it)
/// through `Manifest.parse`, the entry point `milepost validate` and the fuzz target use.
/// A crash fails the whole test run; the oracles are the fuzz target's, plus each seed's kind.
@Suite struct FuzzCorpusTests {
    static let corpus = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("fuzz/corpus")

    static var files: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: corpus.path)) ?? []).sorted()
    }

    @Test func corpusHasTheProjectManifestsAndTheHostileCases() {
        #expect(Self.files.filter { $0.hasPrefix("manifest-") }.count == 2)
        #expect(Self.files.filter { $0.hasPrefix("hostile-") }.count >= 14)
    }

    /// `manifest-*` and `valid-*` seeds are valid; `hostile-*` seeds are refused with at least one
    /// error; any other file (a kept crash, `regression-*`) may go either way but must not crash.
    @Test(arguments: FuzzCorpusTests.files)
    func replaysWithoutCrashing(name: String) throws {
        let bytes = try [UInt8](Data(contentsOf: Self.corpus.appendingPathComponent(name)))
        let outcome: Result<Manifest, ManifestError>
        do {
            outcome = .success(try Manifest.parse(ManifestSource(path: name, bytes: bytes), registry: .standard))
        } catch {
            outcome = .failure(error)
        }
        switch outcome {
        case .success:
            #expect(!name.hasPrefix("hostile-"), "a hostile seed was accepted")
        case .failure(.invalid(let diagnostics, _)):
            #expect(diagnostics.contains { $0.severity == .error }, "refused without an error")
            #expect(!name.hasPrefix("manifest-") && !name.hasPrefix("valid-"), "\(diagnostics.map(\.message))")
        case .failure(.unreadable(_, let reason)):
            Issue.record("parse read a file: \(reason)")
        }
    }
}
