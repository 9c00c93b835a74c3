import Foundation
import Milepost
import MilepostFuzzing
import Testing

/// Replays every file of `fuzz/corpus/TARGET` (the target's seeds, and each input that once made a
/// fuzz run fail, kept under libFuzzer's name: `crash-…`, `timeout-…`, `leak-…`, `oom-…`) through
/// its fuzz target, with the target's oracle: what `milepost-fuzz --target=TARGET` would report is
/// a failure here too. A crash fails the whole test run.
@Suite struct FuzzCorpusTests {
    static let corpus = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("fuzz/corpus")

    static func files(of target: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: corpus.appendingPathComponent(target).path)) ?? []).sorted()
    }

    /// `TARGET/FILE` for every file of every target's corpus.
    static var inputs: [String] {
        FuzzTargets.all.flatMap { target in files(of: target.name).map { "\(target.name)/\($0)" } }
    }

    @Test func everyTargetHasASeedCorpusAndEveryFolderATarget() throws {
        let folders = try FileManager.default.contentsOfDirectory(atPath: Self.corpus.path)
        #expect(Set(folders) == Set(FuzzTargets.all.map(\.name)))
        for target in FuzzTargets.all {
            #expect(!Self.files(of: target.name).isEmpty, "\(target.name) has no seed")
        }
    }

    @Test(arguments: FuzzCorpusTests.inputs)
    func replaysThroughItsTarget(input: String) async throws {
        let target = try #require(FuzzTargets.named(String(input.prefix { $0 != "/" })))
        try await target.test([UInt8](Data(contentsOf: Self.corpus.appendingPathComponent(input))))
    }

    @Test func corpusHasTheProjectManifestsAndTheHostileCases() {
        #expect(Self.files(of: "manifest").filter { $0.hasPrefix("manifest-") }.count == 2)
        #expect(Self.files(of: "manifest").filter { $0.hasPrefix("hostile-") }.count >= 14)
    }

    /// `manifest-*` and `valid-*` seeds are valid; `hostile-*` seeds are refused with at least one
    /// error; any other file (a kept failure) may go either way.
    @Test(arguments: FuzzCorpusTests.files(of: "manifest"))
    func manifestSeedIsOfItsKind(name: String) throws {
        let bytes = try [UInt8](Data(contentsOf: Self.corpus.appendingPathComponent("manifest/\(name)")))
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
