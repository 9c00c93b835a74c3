import Glibc

/// A C library loaded at run time with `dlopen`, and its functions looked up by name: how the
/// store client libraries (libpq, libsqlite3, libmariadb) are used, so that the binary does not
/// link them, a host without one still runs the other stores, and no start pays for loading them.
/// The handle is never closed: the functions stay valid for the process's life.
package struct SharedLibrary {
    /// Why a library could not be loaded (`dlerror()`'s message), or lacks a function.
    package struct Failure: Error {
        package var file: String
        package var reason: String
    }

    private let file: String
    private let handle: UnsafeMutableRawPointer

    /// Loads `file` (a soname or a path), resolving every symbol now (`RTLD_NOW`) and keeping them
    /// out of the global namespace (`RTLD_LOCAL`).
    package init(_ file: String) throws(Failure) {
        guard let handle = dlopen(file, RTLD_NOW | RTLD_LOCAL) else {
            throw Failure(file: file, reason: dlerror().map { String(cString: $0) } ?? "unknown error")
        }
        self.file = file
        self.handle = handle
    }

    /// The function `name`, as the C function type `Function` the caller declares from the
    /// library's header (a `@convention(c)` type).
    package func function<Function>(_ name: String) throws(Failure) -> Function {
        guard let address = dlsym(handle, name) else { throw Failure(file: file, reason: "it has no function \(name)") }
        return unsafeBitCast(address, to: Function.self)
    }
}
