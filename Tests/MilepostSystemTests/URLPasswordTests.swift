import MilepostSystem
import Testing

/// What is shown of a store URL (`URLPassword`, on `StoreURL`): libpq's reading of where the
/// password is, never a crash.
@Suite struct URLPasswordTests {
    @Test(arguments: [
        ("postgres://user:secret@host/db?sslmode=require&password=x", "postgres://user@host/db?sslmode=require"),
        ("mysql://root:pw@127.0.0.1:3306/milepost?socket=/run/s.sock", "mysql://root@127.0.0.1:3306/milepost?socket=/run/s.sock"),
        ("postgres://app@db/app", "postgres://app@db/app"),
        ("postgres://db/app", "postgres://db/app"),
        ("/var/lib/app/milepost", "/var/lib/app/milepost"),
        // libpq reads the password up to the first `@` before any `/`: a `?` is part of it (issue 47).
        ("postgres://app:pa?ss@db/app", "postgres://app@db/app"),
        ("postgres://app:pa?milepost_lease=1@db/app", "postgres://app@db/app"),
        // libpq decodes the names of its parameters: `pass%77ord` is `password` (issue 47).
        ("postgres://db/app?pass%77ord=x&sslmode=require", "postgres://db/app?sslmode=require"),
        ("postgres://db/app?PASSWORD=x", "postgres://db/app"),
        // A `?` before `://`: a directory's name, shown as it is (it crashed; issue 47).
        ("dir?x://y", "dir?x://y"),
        ("a?b://c:d@e/f?password=g", "a?b://c@e/f"),
    ])
    func showsTheURLWithoutItsPassword(url: String, shown: String) {
        #expect(URLPassword.removed(from: url) == shown)
    }
}
