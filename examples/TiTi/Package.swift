// swift-tools-version: 6.1
import PackageDescription

let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "TiTi",
    products: [
        .executable(name: "titi-migrate", targets: ["titi-migrate"]),
        .executable(name: "titi-sample", targets: ["titi-sample"]),
    ],
    dependencies: [
        .package(name: "Milepost", path: "../.."),
    ],
    targets: [
        // The timer app's data, its one-time steps and its store: what the app links.
        .target(
            name: "TiTiKit",
            dependencies: [.product(name: "Milepost", package: "Milepost")],
            swiftSettings: strictSettings
        ),
        // The app's own milepost CLI, for ops and CI.
        .executableTarget(
            name: "titi-migrate",
            dependencies: ["TiTiKit", .product(name: "MilepostCLI", package: "Milepost")],
            swiftSettings: strictSettings
        ),
        // Writes a large generated dailys.json, to try removeEmptyDailys at scale.
        .executableTarget(
            name: "titi-sample",
            dependencies: ["TiTiKit"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "TiTiKitTests",
            dependencies: ["TiTiKit", "titi-migrate", .product(name: "MilepostTesting", package: "Milepost")],
            swiftSettings: strictSettings
        ),
    ]
)
