// The libFuzzer entry points of `milepost-fuzz`. `fuzz/run.sh` builds it with `swift build
// --sanitize=fuzzer --sanitize=address`: SwiftPM then compiles this target as a library
// (`-parse-as-library`) and links libFuzzer, whose `main` calls these functions. A plain
// `swift build` compiles it too (so it cannot fall behind the code it tests), into a program that
// does nothing.
import Dispatch
import MilepostFuzzing
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Chooses the target named by `--target=NAME` (libFuzzer ignores flags that start with `--` and
/// passes them on to the processes it starts); `--list` prints the targets.
@_cdecl("LLVMFuzzerInitialize")
public func initialize(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> CInt {
    let arguments = (0..<Int(argc.pointee)).compactMap { argv.pointee?[$0].map { String(cString: $0) } }
    if arguments.contains("--list") {
        write(to: STDOUT_FILENO, FuzzTargets.all.map { "\($0.name)\t\($0.summary)\n" }.joined())
        exit(0)
    }
    let name = arguments.last { $0.hasPrefix("--target=") }.map { String($0.dropFirst("--target=".count)) }
    guard let target = name.flatMap(FuzzTargets.named) else {
        let names = (FuzzTargets.all + FuzzTargets.planted).map(\.name).joined(separator: ", ")
        write(to: STDERR_FILENO, "usage: milepost-fuzz --target=NAME [LIBFUZZER-FLAGS] [CORPUS…] | --list\ntargets: \(names)\n")
        exit(64)
    }
    Selection.target.withLock { $0 = target }
    return 0
}

/// Runs one input through the chosen target; an oracle that does not hold aborts, which libFuzzer
/// reports as a crash and keeps the input of. The target's task starts on this thread
/// (`Task.immediate`) and, as the readers under test do not suspend, ends on it: no thread hop per
/// input, and what it allocates is freed before libFuzzer counts the input's mallocs and frees
/// (more mallocs than frees makes it look for a leak, a slow check).
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    guard let target = Selection.target.withLock({ $0 }) else { return 0 }
    let finding = Selection.Finding()
    let done = DispatchSemaphore(value: 0)
    Task.immediate {
        do {
            try await target.test(bytes)
        } catch {
            finding.text.withLock { $0 = "\(error)" }
        }
        done.signal()
    }
    done.wait()
    if let text = finding.text.withLock({ $0 }) {
        write(to: STDERR_FILENO, "milepost-fuzz: \(target.name): \(text)\n")
        abort()
    }
    return 0
}

/// Writes `text` to `descriptor` with one `write(2)`, unbuffered: LeakSanitizer's check at `exit`
/// ends the process before the C library would flush its buffers.
private func write(to descriptor: CInt, _ text: String) {
    var text = text
    text.withUTF8 { _ = write(descriptor, $0.baseAddress, $0.count) }
}

enum Selection {
    /// Set once, by `initialize`, before the first input.
    static let target = Mutex<FuzzTarget?>(nil)

    /// What one input's oracle found, handed from its task to libFuzzer's thread.
    final class Finding: Sendable {
        let text = Mutex<String?>(nil)
    }
}
