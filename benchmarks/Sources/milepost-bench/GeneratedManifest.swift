import Glibc

/// Generated manifests: realistic `exec` steps for the load benchmark, and no-op steps for planning.
enum GeneratedManifest {
    /// Writes a manifest of about `bytes` bytes: four long-form `exec` steps per threshold,
    /// with parameters, environment, timeouts and descriptions, so every part of the loader works.
    static func write(bytes: Int, to path: String) throws {
        var text = "app: bench\nbaseline: \"0.1\"\nmigrations:\n"
        var threshold = 0
        while text.utf8.count < bytes {
            threshold += 1
            text += "  1.\(threshold):\n"
            for step in 1...4 {
                text += """
                        - name: exec
                          id: step-\(step)
                          with:
                            command: [/bin/true, --table, "dailys_\(threshold)", --batch, '500']
                            env: {MODE: fast, STEP: "\(threshold).\(step)"}
                          timeout: 30s
                          retries: 1
                          idempotent: \(step % 2 == 0)
                          description: Generated step \(step) of threshold \(threshold) for the load benchmark

                    """
            }
        }
        let descriptor = open(path, O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw Failure(path: path) }
        defer { close(descriptor) }
        let bytes = Array(text.utf8)
        guard bytes.withUnsafeBytes({ Glibc.write(descriptor, $0.baseAddress, $0.count) }) == bytes.count else {
            throw Failure(path: path)
        }
    }

    struct Failure: Error, CustomStringConvertible {
        var path: String
        var description: String { "cannot write \(path)" }
    }

    /// `steps` thresholds `1.1` … `1.N` with one `noop` step each.
    static func noop(steps: Int) -> [UInt8] {
        var text = "migrations:\n"
        text.reserveCapacity(steps * 24)
        for index in 1...steps {
            text += "  1.\(index):\n    - noop\n"
        }
        return Array(text.utf8)
    }
}
