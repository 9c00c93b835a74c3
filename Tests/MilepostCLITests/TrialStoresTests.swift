@testable import MilepostCLI
import Testing

/// Where `milepost test` puts each trial's store: the URL split as the store splits it (`StoreURL`).
@Suite struct TrialStoresTests {
    @Test(arguments: [
        ("postgres://app@db/shop", "postgres://app@db/shop?milepost_schema=milepost_tT_1"),
        ("postgres://app@db/shop?sslmode=require&milepost_schema=mine", "postgres://app@db/shop?sslmode=require&milepost_schema=mine_tT_1"),
        ("postgres://app:pa?ss@db/shop", "postgres://app:pa?ss@db/shop?milepost_schema=milepost_tT_1"),
        ("postgres://app@db/shop?milepost_schema=a%62", "postgres://app@db/shop?milepost_schema=ab_tT_1"),
        ("mysql://app@db:3306/shop", "mysql://app@db:3306/shop_tT_1"),
        ("mysql://app:pa?ss@db/shop?charset=utf8", "mysql://app:pa?ss@db/shop_tT_1?charset=utf8"),
    ])
    func eachTrialGetsAStoreOfItsOwn(url: String, first: String) throws {
        let stores = try TrialStores(url, schemes: ["postgres", "postgresql", "mysql", "mariadb"], token: "T")
        #expect(stores.spec(trial: 1, in: "/sandbox") == first)
    }

    @Test func aServerURLWithoutADatabaseIsRefused() {
        #expect(throws: (any Error).self) { try TrialStores("mysql://app@db", schemes: ["mysql"], token: "T") }
    }
}
