// swift-tools-version: 6.1
import Foundation
import PackageDescription

// Benchmarks for Milepost (see docs/performance.md); run them with `benchmarks/run.sh`.
// A path dependency's identity is its directory's name, which differs between checkouts.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()

let package = Package(
    name: "MilepostBenchmarks",
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
    ],
    targets: [
        .executableTarget(
            name: "milepost-bench",
            dependencies: [
                .product(name: "Milepost", package: root.lastPathComponent),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: [
                .enableUpcomingFeature("ExistentialAny"),
                .enableUpcomingFeature("InternalImportsByDefault"),
            ]
        )
    ]
)
