import Foundation
import Testing

/// A password in a `--store` URL (the user part or `?password=`) is never printed: not in `run`'s
/// advice, not in `status` (text and JSON `next`), not in the baseline hint of an empty store, not
/// in `validate --store`'s document (issue 25, item 14).
@Suite(.enabled(if: TestServer.isConfigured, TestServer.missing))
struct StorePasswordOutputTests {
    static let secret = "Pa55word4Store"

    /// The test server's URL for a fresh schema, with a password in both places (the test server
    /// trusts local connections, so it is not checked).
    static func urlWithPassword() -> String {
        let url = TestServer.freshSchemaURL().replacingOccurrences(of: "://postgres@", with: "://postgres:\(secret)@")
        return url + "&password=\(secret)x"
    }

    @Test func noOutputShowsTheStorePassword() throws {
        let url = Self.urlWithPassword()
        #expect(url.contains(":\(Self.secret)@"), "the test server's URL has no user part: \(url)")
        let directory = try TestDirectory()
        try directory.write("""
            migrations:
              1: [{name: exec, id: first, with: {command: ['true']}}]
              2: [{name: exec, id: breaks, with: {command: [sh, -c, 'exit 3']}}]
            """, to: "milepost.yaml")
        var shown: [String] = []
        func milepost(_ arguments: [String], expecting status: Int32) throws {
            let process = try MilepostProcess(arguments, in: directory.path)
            let (exit, stderr) = try process.wait()
            #expect(exit == status, "\(arguments): \(stderr)")
            shown += [stderr, try process.stdout()]
        }
        try milepost(["status", "--store", url, "--to", "2"], expecting: 0)
        #expect(shown.joined().contains("`milepost baseline VERSION --store 'postgres://postgres@"), "\(shown)")
        try milepost(["run", "--store", url, "--to", "2"], expecting: 1)
        try milepost(["status", "--store", url, "--to", "2"], expecting: 0)
        try milepost(["status", "--store", url, "--to", "2", "--format", "json"], expecting: 0)
        try milepost(["plan", "--store", url, "--to", "2"], expecting: 0)
        try milepost(["validate", "--store", url, "--format", "json"], expecting: 0)
        let output = shown.joined(separator: "\n")
        #expect(output.contains("`milepost resolve 2/breaks --done --store 'postgres://postgres@"), "\(output)")
        #expect(!output.contains(Self.secret), "\(output)")
    }
}
