import Glibc
import MilepostYAML
import Testing

@Suite struct YAMLSourceTests {
    /// A fresh temporary directory, removed by the caller.
    private func temporaryDirectory() throws -> String {
        var template = Array("/tmp/milepost-yaml-XXXXXX".utf8CString)
        let path = try #require(template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) })
        return String(cString: path)
    }

    private func write(_ text: String, to path: String) throws {
        let file = try #require(fopen(path, "w"))
        defer { fclose(file) }
        #expect(fputs(text, file) >= 0)
    }

    @Test func readsARegularFile() throws {
        let directory = try temporaryDirectory()
        defer { rmdir(directory) }
        let path = directory + "/manifest.yaml"
        try write("app: titi\n", to: path)
        defer { unlink(path) }
        #expect(try YAMLSource.read(path: path, maxBytes: 10) == Array("app: titi\n".utf8))
        #expect(throws: YAMLSource.ReadError.refused(path: path, reason: "the file is 10 bytes; the limit is 9 bytes")) {
            try YAMLSource.read(path: path, maxBytes: 9)
        }
    }

    @Test func missingFileAndDirectoryAreUnreadable() throws {
        let directory = try temporaryDirectory()
        defer { rmdir(directory) }
        #expect(throws: YAMLSource.ReadError.unreadable(path: directory, reason: "is a directory")) {
            try YAMLSource.read(path: directory, maxBytes: 100)
        }
        let missing = directory + "/missing.yaml"
        #expect(throws: YAMLSource.ReadError.unreadable(path: missing, reason: "No such file or directory")) {
            try YAMLSource.read(path: missing, maxBytes: 100)
        }
    }

    @Test func fifoIsRefusedWithoutBlocking() throws {
        let directory = try temporaryDirectory()
        defer { rmdir(directory) }
        let path = directory + "/pipe.yaml"
        #expect(mkfifo(path, 0o600) == 0)
        defer { unlink(path) }
        #expect(throws: YAMLSource.ReadError.refused(path: path, reason: "not a regular file (a FIFO)")) {
            try YAMLSource.read(path: path, maxBytes: 100)
        }
    }

    @Test func devZeroIsRefused() {
        #expect(throws: YAMLSource.ReadError.refused(path: "/dev/zero", reason: "not a regular file (a device)")) {
            try YAMLSource.read(path: "/dev/zero", maxBytes: 100)
        }
    }

    @Test func socketIsRefused() throws {
        let directory = try temporaryDirectory()
        defer { rmdir(directory) }
        let path = directory + "/socket.yaml"
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        #expect(fd >= 0)
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: path.utf8) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(bound == 0)
        defer { unlink(path) }
        #expect(throws: YAMLSource.ReadError.refused(path: path, reason: "not a regular file (a socket or device)")) {
            try YAMLSource.read(path: path, maxBytes: 100)
        }
    }
}
