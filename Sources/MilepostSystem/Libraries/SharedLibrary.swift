import Glibc

/// A C library loaded at run time with `dlopen`, and its functions looked up by name: how the
/// store client libraries (libpq, libsqlite3, libmariadb) are used, so that the binary does not
/// link them, a host without one still runs the other stores, and no start pays for loading them.
/// The handle is never closed: the functions stay valid for the process's life.
package struct SharedLibrary {
    /// Which library, and what to tell a host that lacks it.
    package struct Name: Sendable {
        /// What it is, for messages: "the PostgreSQL client library".
        package var title: String
        /// Its file name (soname), loaded unless `variable` names another file or path.
        package var soname: String
        /// The environment variable that may name another file, if any (`MILEPOST_LIBPQ`).
        package var variable: String?
        /// Where to get it: "Debian/Ubuntu: apt-get install libpq5; RHEL/Fedora: dnf install libpq".
        package var packages: String

        package init(title: String, soname: String, variable: String? = nil, packages: String) {
            self.title = title
            self.soname = soname
            self.variable = variable
            self.packages = packages
        }

        /// The file to load: `variable`'s value when set and not empty, else `soname`.
        package var file: String {
            variable.flatMap(ProcessEnvironment.value).flatMap { $0.isEmpty ? nil : $0 } ?? soname
        }
    }

    /// Why a library could not be loaded (`dlerror()`'s message), or lacks a function; its
    /// description says what to install.
    package struct Failure: Error, CustomStringConvertible {
        package var name: Name
        package var file: String
        package var reason: String

        package var description: String {
            "cannot load \(name.title) \(file) (\(reason)); install it (\(name.packages))"
                + (name.variable.map { " or name it with \($0)=/path/to/\(name.soname)" } ?? "")
        }
    }

    private let name: Name
    private let file: String
    private let handle: UnsafeMutableRawPointer

    /// Loads `name.file`, keeping its symbols out of the global namespace (`RTLD_LOCAL`). Bound
    /// as each library was built to be, as a program linked with it is (`RTLD_LAZY`: Debian's
    /// libpq, libssl and libmariadb are built `BIND_NOW` and still bind at once): forcing
    /// `RTLD_NOW` on the rest of libpq's twenty dependencies (Kerberos) cost 1.8 M instructions, a
    /// tenth of a fleet replica's pre-start no-op (docs/performance.md). The functions Milepost
    /// calls are looked up now all the same (`function(_:)`), so a library without one is refused
    /// before it is used; a symbol missing from one of its dependencies that is not built
    /// `BIND_NOW` now stops the process at its first call ("symbol lookup error") rather than at
    /// the load — a broken installation either way.
    package init(_ name: Name) throws(Failure) {
        let file = name.file
        guard let handle = dlopen(file, RTLD_LAZY | RTLD_LOCAL) else {
            throw Failure(name: name, file: file, reason: dlerror().map { String(cString: $0) } ?? "unknown error")
        }
        self.name = name
        self.file = file
        self.handle = handle
    }

    /// The function `name`, as the C function type `Function` the caller declares from the
    /// library's header (a `@convention(c)` type).
    package func function<Function>(_ symbol: String) throws(Failure) -> Function {
        guard let address = dlsym(handle, symbol) else {
            throw Failure(name: name, file: file, reason: "it has no function \(symbol)")
        }
        return unsafeBitCast(address, to: Function.self)
    }
}
