import Foundation
import Testing

/// `milepost` links no OpenTelemetry exporter: when the OTEL_* environment asks for export it
/// becomes `milepost-otel` from its own directory, and without one there it warns and runs unexported.
struct ExporterHandoffTests {
    /// `printf` of the step's TRACEPARENT: only an exporting binary gives a step one.
    static let manifest = """
        app: shop
        migrations:
          2.0:
            - name: exec
              id: trace
              with: {command: [sh, -c, 'printf %s "$TRACEPARENT" > traceparent.txt']}
        """

    /// A collector address that refuses connections: export fails fast and changes nothing.
    static let refusingEndpoint = ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:9"]

    #if OpenTelemetry
    @Test func anEndpointHandsTheRunToMilepostOtelBesideIt() throws {
        let work = try WorkDirectory()
        try work.write(Self.manifest, to: "milepost.yaml")
        var milepost = work.milepost
        milepost.environment = Self.refusingEndpoint
        let result = try milepost.run("run", "--to", "2.0")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("running without export"), "\(result.stderr)")
        #expect(try work.read("traceparent.txt").hasPrefix("00-"))
    }
    #else
    /// Built without the `OpenTelemetry` trait, milepost-otel has no exporter: it is still handed
    /// the run, says why nothing is exported, and runs it.
    @Test func anEndpointHandsTheRunToMilepostOtelBuiltWithoutTheTrait() throws {
        let work = try WorkDirectory()
        try work.write(Self.manifest, to: "milepost.yaml")
        var milepost = work.milepost
        milepost.environment = Self.refusingEndpoint
        let result = try milepost.run("run", "--to", "2.0")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("milepost-otel: built without the OpenTelemetry trait"), "\(result.stderr)")
        #expect(result.stderr.contains("1 step ran"), "\(result.stderr)")
        #expect(try work.read("traceparent.txt") == "")
    }
    #endif

    @Test func withoutAnEndpointNothingIsHandedOver() throws {
        let work = try WorkDirectory()
        try work.write(Self.manifest, to: "milepost.yaml")
        let result = try work.milepost.run("run", "--to", "2.0")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try work.read("traceparent.txt") == "")
    }

    @Test func withoutMilepostOtelTheRunWarnsAndGoesOnUnexported() throws {
        let work = try WorkDirectory()
        try work.write(Self.manifest, to: "milepost.yaml")
        // A copy of milepost alone in a directory: /proc/self/exe names the copy, not a link to the build.
        let alone = work.path + "/bin/milepost"
        try FileManager.default.createDirectory(atPath: work.path + "/bin", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: MilepostBinary.path, toPath: alone)
        var milepost = work.milepost
        milepost.environment = Self.refusingEndpoint
        milepost.launcher = ["/bin/sh", "-c", "exec \"$MILEPOST_ALONE\" \"$@\""]
        milepost.environment["MILEPOST_ALONE"] = alone
        let result = try milepost.run("run", "--to", "2.0")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("cannot start \(work.path)/bin/milepost-otel: No such file or directory; running without export"), "\(result.stderr)")
        #expect(try work.read("traceparent.txt") == "")
        #expect(result.stderr.contains("1 step ran"), "\(result.stderr)")
    }
}
