import Milepost
import MilepostStock

extension FuzzTarget {
    /// A manifest's bytes, read as `milepost validate` reads them, against the stock registry (every
    /// built-in step's parameter type).
    static let manifest = FuzzTarget(
        name: "manifest",
        summary: "manifest bytes → Manifest.parse with the stock registry; a refusal says why; an accepted manifest's "
            + "steps decode their parameters again, its lock file reads back and checks clean"
    ) { bytes in
        let source = ManifestSource(path: "fuzz.yaml", bytes: bytes)
        let manifest: Manifest
        do throws(ManifestError) {
            manifest = try Manifest.parse(source, registry: registry)
        } catch {
            guard case .invalid(let diagnostics, _) = error else { throw FuzzFinding("parse read a file: \(error)") }
            try oracle(diagnostics.contains { $0.severity == .error }, "refused without an error")
            try checkRendering(diagnostics, of: source)
            return
        }
        try checkRendering(manifest.warnings, of: source)
        // A run decodes each step's parameters again: what the load accepted, the run must too.
        for step in manifest.steps + ManifestHooks.Phase.allCases.flatMap({ manifest.hooks[$0] }) {
            do {
                _ = try step.parameters()
            } catch {
                throw FuzzFinding("\(step.id): the load accepted parameters that a run refuses: \(error)")
            }
        }
        // What `milepost lock` writes, `validate --locked` reads back as the same steps, with no finding.
        let lockText = ManifestLock.text(of: manifest)
        let (lock, errors) = ManifestLock.parse(lockText, file: "milepost.lock")
        try oracle(errors.isEmpty, "the lock file written for the manifest does not read back: \(errors.map(\.message))")
        try oracle(
            lock.entries.map(\.id) == manifest.steps.map(\.id) && lock.entries.map(\.fingerprint) == manifest.steps.map(\.fingerprint),
            "the lock file written for the manifest reads back as other steps")
        let findings = lock.check(manifest, file: "milepost.lock")
        try oracle(findings.isEmpty, "the manifest does not check clean against its own lock: \(findings.map(\.message))")
    }

    /// The stock binary's steps.
    private static let registry = StockCommandLine.registry

    /// Each diagnostic renders as `validate` prints it, without a control character a terminal would act on.
    private static func checkRendering(_ diagnostics: [Diagnostic], of source: ManifestSource) throws(FuzzFinding) {
        for diagnostic in diagnostics {
            let text = diagnostic.rendered(source: source)
            try oracle(
                !text.unicodeScalars.contains { $0 != "\n" && $0 != "\t" && $0.isControlCharacter },
                "a rendered diagnostic holds a control character: \(text.debugDescription)")
        }
    }
}

extension Unicode.Scalar {
    /// C0 and C1 controls, DEL, and the Unicode line and paragraph separators: what rendered text escapes.
    var isControlCharacter: Bool {
        value < 0x20 || (0x7F...0x9F).contains(value) || value == 0x2028 || value == 0x2029
    }
}
