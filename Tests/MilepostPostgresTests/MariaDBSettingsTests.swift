import Testing
@testable import MilepostMariaDB

/// How a `mysql://` URL is read: no server needed.
@Suite struct MariaDBSettingsTests {
    @Test func aURLNamesTheServerTheUserAndTheDatabaseAndShowsNoPassword() {
        let settings = MariaDBSettings(url: "mariadb://app:p%40ss@db.internal:3307/shop?milepost_lease=5s")
        #expect(settings.host == "db.internal")
        #expect(settings.port == 3307)
        #expect(settings.user == "app")
        #expect(settings.password == "p@ss")
        #expect(settings.database == "shop")
        #expect(settings.lease == .seconds(5))
        #expect(settings.location == "mariadb://app@db.internal:3307/shop?milepost_lease=5s")
        #expect(settings.refusal == nil)
    }

    @Test func defaultsAndASocket() {
        let settings = MariaDBSettings(url: "mysql://root@/app?socket=/run/mysqld/mysqld.sock")
        #expect(settings.host == nil)
        #expect(settings.port == 3306)
        #expect(settings.socket == "/run/mysqld/mysqld.sock")
        #expect(settings.lease == .seconds(30))
        #expect(settings.refusal == nil)
    }

    @Test(arguments: [
        ("mysql://db.internal", "names no database"),
        ("mysql:app", "the URL has no //; write mysql://"),
        ("mysql://db.internal:port/app", "the port port is not a number"),
        ("mysql://db.internal/app?milepost_lease=10ms", "milepost_lease=10ms"),
        ("mysql://db.internal/app?sslmode=require", "unknown URL parameter sslmode"),
        ("mysql://db.internal/a`b", "not one Milepost creates"),
    ])
    func aURLItCannotUseIsRefusedSayingWhy(url: String, reason: String) {
        let refusal = MariaDBSettings(url: url).refusal
        #expect(refusal?.contains(reason) == true, "\(refusal ?? "nil")")
        #expect(MariaDBStore.accepts(url))
    }
}
