import Foundation
import Glibc
import MilepostSystem
import SystemPackage
import Testing

/// A real OTLP/HTTP receiver for the export tests: Tests/OTLP/otlp-receiver.py, which decodes each
/// posted protobuf request with PyPI's `opentelemetry-proto`, run by the Python that
/// `MILEPOST_TEST_OTLP_PYTHON` names. Without it the tests are disabled with that reason; `.ci/run`
/// installs it into its venv and fails when a test run reports them disabled.
final class OTLPReceiver {
    static let python = ProcessInfo.processInfo.environment["MILEPOST_TEST_OTLP_PYTHON"] ?? ""
    static let isConfigured = !python.isEmpty
    static let missing: Comment = """
        MILEPOST_TEST_OTLP_PYTHON is not set; point it at a Python with opentelemetry-proto \
        (python3 -m venv /tmp/otlp && /tmp/otlp/bin/pip install opentelemetry-proto)
        """
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("OTLP/otlp-receiver.py").path

    /// A span as the receiver decoded it; ids in hex.
    struct Span {
        var name: String
        var traceID: String
        var spanID: String
        var parentSpanID: String?
        var attributes: [String: String]
        var statusCode: String?
    }

    let output: String
    private let pid: pid_t
    let port: Int

    /// - parameter silent: accept connections and never answer, like a collector that hangs.
    init(in work: WorkDirectory, silent: Bool = false) throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.python), "MILEPOST_TEST_OTLP_PYTHON=\(Self.python) is not executable")
        output = work.path + "/otlp-requests.jsonl"
        // Spawned with posix_spawn, not Foundation's Process: Process's monitoring thread can block
        // waiting for a long-lived child, and with it every other test's waitUntilExit.
        let (readEnd, writeEnd) = try Spawn.pipe(for: Self.python)
        defer { try? readEnd.close() }
        pid = try Spawn.launch(
            [Self.python, Self.script, output] + (silent ? ["silent"] : []), environment: ProcessInfo.processInfo.environment,
            directory: work.path, stdout: writeEnd, stderr: .standardError)
        try writeEnd.close()
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while try withUnsafeMutableBytes(of: &byte, { try readEnd.read(into: $0) }) == 1, byte != UInt8(ascii: "\n") {
            line.append(byte)
        }
        port = try #require(Int(String(decoding: line, as: UTF8.self)), "the receiver did not print its port")
    }

    deinit {
        kill(pid, SIGKILL)
        var status: Int32 = 0
        _ = waitpid(pid, &status, 0)
    }

    var endpoint: String { "http://127.0.0.1:\(port)" }

    /// Every request received so far at `path` (`/v1/traces`, `/v1/metrics`), decoded.
    func requests(at path: String) throws -> [[String: Any]] {
        guard FileManager.default.fileExists(atPath: output) else { return [] }
        return try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n").compactMap { line in
            let entry = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return entry?["path"] as? String == path ? entry?["request"] as? [String: Any] : nil
        }
    }

    /// The resource attributes and spans of every trace export.
    func spans() throws -> (resource: [String: String], spans: [Span]) {
        var resource: [String: String] = [:]
        var spans: [Span] = []
        for request in try requests(at: "/v1/traces") {
            for resourceSpans in request["resourceSpans"] as? [[String: Any]] ?? [] {
                resource.merge(Self.attributes((resourceSpans["resource"] as? [String: Any])?["attributes"])) { _, new in new }
                for scope in resourceSpans["scopeSpans"] as? [[String: Any]] ?? [] {
                    for span in scope["spans"] as? [[String: Any]] ?? [] {
                        spans.append(Span(
                            name: span["name"] as? String ?? "", traceID: span["traceId"] as? String ?? "",
                            spanID: span["spanId"] as? String ?? "", parentSpanID: span["parentSpanId"] as? String,
                            attributes: Self.attributes(span["attributes"]),
                            statusCode: (span["status"] as? [String: Any])?["code"] as? String))
                    }
                }
            }
        }
        return (resource, spans)
    }

    /// The names of every metric exported, and their data points' attributes.
    func metrics() throws -> [String: [[String: String]]] {
        var metrics: [String: [[String: String]]] = [:]
        for request in try requests(at: "/v1/metrics") {
            for resourceMetrics in request["resourceMetrics"] as? [[String: Any]] ?? [] {
                for scope in resourceMetrics["scopeMetrics"] as? [[String: Any]] ?? [] {
                    for metric in scope["metrics"] as? [[String: Any]] ?? [] {
                        let name = metric["name"] as? String ?? ""
                        let data = ["histogram", "sum", "gauge"].compactMap { metric[$0] as? [String: Any] }.first
                        let points = (data?["dataPoints"] as? [[String: Any]] ?? []).map { Self.attributes($0["attributes"]) }
                        metrics[name, default: []].append(contentsOf: points)
                    }
                }
            }
        }
        return metrics
    }

    /// OTLP `KeyValue`s as text: `{"key": "a", "value": {"stringValue": "b"}}` → `["a": "b"]`.
    private static func attributes(_ list: Any?) -> [String: String] {
        var result: [String: String] = [:]
        for pair in list as? [[String: Any]] ?? [] {
            guard let key = pair["key"] as? String, let value = (pair["value"] as? [String: Any])?.values.first else { continue }
            result[key] = "\(value)"
        }
        return result
    }
}
