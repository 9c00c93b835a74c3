import Foundation
import MilepostTestSupport
import Testing

/// libpq is loaded with dlopen only when a `postgres://` store is opened: the binary does not link
/// it, a host without it runs file-store manifests, and a PostgreSQL URL there exits 69 saying what
/// to install. `MILEPOST_LIBPQ` pointing nowhere stands for a host without libpq. The same for the
/// MariaDB client library and `mysql://` stores (`MILEPOST_LIBMARIADB`).
@Suite struct LibPQLoadingTests {
    static let noLibpq = ["MILEPOST_LIBPQ": "/nonexistent/libpq.so.5"]

    /// Nor libmariadb, nor libsqlite3 (loaded when an `sqlite:` store opens), nor Foundation beyond
    /// FoundationEssentials (its ICU data was 34 MB of the static binary), nor libstdc++ (linked
    /// statically: binding its symbols was a third of the no-op run): a no-op start loads none.
    @Test func theBinaryLinksNoStoreClientLibraryNorFoundation() throws {
        let readelf = Process()
        readelf.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        readelf.arguments = ["readelf", "--dynamic", MilepostBinary.path]
        let output = try ExecClosingPipe()
        readelf.standardOutput = output.fileHandleForWriting
        try readelf.run()
        output.closeWritingEnd()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        readelf.waitUntilExit()
        #expect(readelf.terminationStatus == 0)
        let needed = text.split(separator: "\n").filter { $0.contains("(NEEDED)") }
        #expect(!needed.isEmpty, "readelf listed no NEEDED entry: \(text)")
        for library in ["libpq", "libmariadb", "libsqlite3", "libFoundation.so", "libFoundationInternationalization", "lib_FoundationICU", "libstdc++"] {
            #expect(needed.filter { $0.contains(library) } == [], "\(library) is linked")
        }
    }

    @Test func aHostWithoutLibpqRunsFileStoreManifests() throws {
        let work = try WorkDirectory()
        try work.write(ExitCodeTests.manifest, to: "milepost.yaml")
        var milepost = work.milepost
        milepost.environment = Self.noLibpq
        let result = try milepost.run("run", "--to", "2.1")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try work.read("ran.txt") == "2.1/touch 1.0 2.1\n")
    }

    @Test func aPostgresURLWithoutLibpqExits69SayingWhatToInstall() throws {
        let work = try WorkDirectory()
        try work.write(ExitCodeTests.manifest, to: "milepost.yaml")
        var milepost = work.milepost
        milepost.environment = Self.noLibpq
        let result = try milepost.run("run", "--to", "2.1", "--store", "postgres://app@127.0.0.1:1/shop")
        #expect(result.status == 69, "\(result.stderr)")
        #expect(result.stderr.contains(
            "cannot load the PostgreSQL client library /nonexistent/libpq.so.5 (/nonexistent/libpq.so.5: cannot open shared object file"),
            "\(result.stderr)")
        #expect(result.stderr.contains("apt-get install libpq5"), "\(result.stderr)")
        #expect(!work.exists("ran.txt"))
    }

    @Test func aMySQLURLWithoutLibmariadbExits69SayingWhatToInstall() throws {
        let work = try WorkDirectory()
        try work.write(ExitCodeTests.manifest, to: "milepost.yaml")
        var milepost = work.milepost
        milepost.environment = ["MILEPOST_LIBMARIADB": "/nonexistent/libmariadb.so.3"]
        let result = try milepost.run("run", "--to", "2.1", "--store", "mysql://app:s3cret@127.0.0.1:1/shop")
        #expect(result.status == 69, "\(result.stderr)")
        #expect(result.stderr.contains("cannot load the MariaDB client library /nonexistent/libmariadb.so.3"), "\(result.stderr)")
        #expect(result.stderr.contains("apt-get install libmariadb3"), "\(result.stderr)")
        #expect(!result.stderr.contains("s3cret"))
        #expect(!work.exists("ran.txt"))
    }
}
