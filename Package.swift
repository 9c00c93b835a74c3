// swift-tools-version: 6.2
import PackageDescription

let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

// swiftc exports every public symbol of an executable, and a `dladdr` at start-up scans them all:
// with SwiftNIO, BoringSSL and swift-otel linked that was 37,000 symbols and 1.2 M instructions of
// the no-op run (docs/performance.md). Nothing resolves symbols in these binaries (libpq is
// loaded by them, not into them), so they export none.
let exportNoSymbols: LinkerSetting = .unsafeFlags(["-Xlinker", "--no-export-dynamic"], .when(platforms: [.linux]))

// The static release binary (`--static-swift-stdlib`) links libstdc++.a, which the Swift runtime
// needs, instead of loading libstdc++.so.6: binding that library's symbols was 1.3 M of the no-op
// run's 4.5 M instructions (docs/performance.md). swiftc's own link arguments name `-lstdc++` and
// no flag can change that, so a directory searched first holds a `libstdc++.so` that is a linker
// script naming the archive. The host building the static binaries needs libstdc++.a (Debian and
// Ubuntu: libstdc++-N-dev, which the Swift toolchain already requires; Fedora/RHEL:
// libstdc++-static). Builds with the dynamic Swift runtime do not name `-lstdc++` (no target has
// C++ sources or C++ interop), so there the script is never read.
let staticLibStdCxx: LinkerSetting = .unsafeFlags(["-L", Context.packageDirectory + "/scripts/link"], .when(platforms: [.linux]))

let package = Package(
    name: "Milepost",
    products: [
        .library(name: "Milepost", targets: ["Milepost"]),
        .library(name: "MilepostPostgres", targets: ["MilepostPostgres"]),
        .library(name: "MilepostSQLite", targets: ["MilepostSQLite"]),
        .library(name: "MilepostMariaDB", targets: ["MilepostMariaDB"]),
        .library(name: "MilepostCLI", targets: ["MilepostCLI"]),
        .library(name: "MilepostTesting", targets: ["MilepostTesting"]),
        .executable(name: "milepost", targets: ["milepost"]),
        .executable(name: "milepost-otel", targets: ["milepost-otel"]),
    ],
    // `OpenTelemetry` links the exporter (swift-otel, and under it SwiftNIO and AsyncHTTPClient)
    // into `milepost-otel`. It is off by default, so an application that depends on Milepost
    // resolves none of those packages (SwiftPM prunes the dependencies only disabled traits use);
    // the stock binaries, the release and CI build with `--traits OpenTelemetry`.
    traits: [
        .trait(name: "OpenTelemetry", description: "Link the OTLP exporter into milepost-otel."),
        .default(enabledTraits: []),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/swift-otel/swift-otel", from: "1.6.0", traits: ["OTLPHTTP"]),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.4.1"),
        // `swift package generate-documentation --target Milepost` (the DocC catalog); used by no
        // target, so an application does not resolve it.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // The system libyaml (Debian: libyaml-dev), seen through a one-header shim.
        .systemLibrary(
            name: "CYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"])]
        ),
        // The system libsqlite3 (Debian: libsqlite3-dev), seen through a one-header shim; linked only
        // by the tests that read a store's database themselves (MilepostSQLite loads it at run time).
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // What must run between fork and exec, where Swift cannot: a child that dies with its
        // parent (PR_SET_PDEATHSIG) and waits until its process group is recorded.
        .target(name: "CMilepostSpawn"),
        // The operating system as Milepost uses it: files and descriptors, processes and process
        // groups, the environment, signals, identity (pid@host), time, duration text, name suggestions.
        // Package access only; it imports nothing of ours but CMilepostSpawn.
        .target(
            name: "MilepostSystem",
            dependencies: ["CMilepostSpawn", .product(name: "SystemPackage", package: "swift-system")],
            swiftSettings: strictSettings
        ),
        // YAML → located node tree (iterative, bounded), and a Decoder over it.
        .target(
            name: "MilepostYAML",
            dependencies: ["CYAML", "MilepostSystem"],
            swiftSettings: strictSettings
        ),
        // The engine: versions, manifest, registry, planner, runner, stores, journal.
        .target(
            name: "Milepost",
            dependencies: [
                "MilepostSystem",
                "MilepostYAML",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "Instrumentation", package: "swift-distributed-tracing"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ],
            swiftSettings: strictSettings
        ),
        // The PostgreSQL store (fleet mode) and the built-in `sql` step.
        .target(
            name: "MilepostPostgres",
            dependencies: ["Milepost", "MilepostSystem"],
            swiftSettings: strictSettings
        ),
        // The SQLite store (`sqlite:PATH`) and the built-in `sqlite` step.
        .target(
            name: "MilepostSQLite",
            dependencies: ["Milepost", "MilepostSystem", .product(name: "SystemPackage", package: "swift-system")],
            swiftSettings: strictSettings
        ),
        // The MariaDB/MySQL store (`mysql://…`) and the built-in `mysql` step; libmariadb is loaded
        // with dlopen when such a store is opened, never linked.
        .target(
            name: "MilepostMariaDB",
            dependencies: ["Milepost", "MilepostSystem"],
            swiftSettings: strictSettings
        ),
        // The command line as a library, so applications can ship their own binary.
        .target(
            name: "MilepostCLI",
            dependencies: [
                "Milepost",
                "MilepostSystem",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            swiftSettings: strictSettings,
            plugins: ["BuildInfo"]
        ),
        // Upgrade scenarios for applications' tests: a temporary file store, a manifest, a run.
        .target(
            name: "MilepostTesting",
            dependencies: ["Milepost", "MilepostSystem"],
            swiftSettings: strictSettings
        ),
        // Records the git commit a binary is built from, for `milepost --version`.
        .plugin(name: "BuildInfo", capability: .buildTool()),
        // OpenTelemetry export for the stock binary (swift-otel, OTLP/HTTP), configured by the
        // OTEL_* environment; applications embedding MilepostCLI link it only if they choose to.
        .target(
            name: "MilepostOTel",
            dependencies: [
                "MilepostCLI",
                .product(name: "OTel", package: "swift-otel", condition: .when(traits: ["OpenTelemetry"])),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: .when(traits: ["OpenTelemetry"])),
            ],
            swiftSettings: strictSettings
        ),
        // The stock command line: the standard steps, the PostgreSQL store and `sql` step, the SQLite
        // store and `sqlite` step, the MariaDB/MySQL store and `mysql` step.
        .target(
            name: "MilepostStock",
            dependencies: ["MilepostCLI", "Milepost", "MilepostPostgres", "MilepostSQLite", "MilepostMariaDB"],
            swiftSettings: strictSettings
        ),
        // The stock binary, without an exporter: it `exec`s `milepost-otel` when OTEL_* asks for export.
        .executableTarget(
            name: "milepost",
            dependencies: ["MilepostStock", "MilepostCLI", "MilepostSystem"],
            swiftSettings: strictSettings,
            linkerSettings: [exportNoSymbols, staticLibStdCxx]
        ),
        // The stock binary with the OpenTelemetry exporter linked.
        .executableTarget(
            name: "milepost-otel",
            dependencies: ["MilepostStock", "MilepostOTel"],
            swiftSettings: strictSettings,
            linkerSettings: [exportNoSymbols, staticLibStdCxx]
        ),
        // The fuzz targets: each input Milepost reads from outside the program or from a crash, with
        // the oracle its reader must satisfy on any bytes (docs/reliability.md, "Fuzzing"). The tests
        // replay their corpora (`fuzz/corpus/TARGET`); `milepost-fuzz` hands them to libFuzzer.
        .target(
            name: "MilepostFuzzing",
            dependencies: [
                "Milepost", "MilepostSystem", "MilepostCLI", "MilepostStock", "MilepostPostgres", "MilepostMariaDB",
            ],
            swiftSettings: strictSettings
        ),
        // The libFuzzer binary: `fuzz/run.sh` builds it with `--sanitize=fuzzer --sanitize=address`,
        // which links libFuzzer's `main`; `milepost-fuzz --target=NAME CORPUS…` runs one target.
        .executableTarget(
            name: "milepost-fuzz",
            dependencies: ["MilepostFuzzing"],
            swiftSettings: strictSettings
        ),
        // Test plumbing shared by the test targets: where the built executables are, the runner fixture.
        .target(
            name: "MilepostTestSupport",
            dependencies: ["Milepost", .product(name: "SystemPackage", package: "swift-system")],
            path: "Tests/MilepostTestSupport",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "MilepostSystemTests",
            dependencies: ["MilepostSystem", .product(name: "SystemPackage", package: "swift-system")],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "MilepostYAMLTests",
            dependencies: ["MilepostYAML"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "MilepostTests",
            dependencies: ["Milepost", "MilepostFuzzing", "MilepostSystem", "MilepostTestSupport", "MilepostTesting", "MilepostYAML"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "MilepostPostgresTests",
            dependencies: ["MilepostPostgres", "MilepostSQLite", "MilepostMariaDB", "CSQLite", "Milepost", "MilepostSystem", "MilepostTestSupport", "milepost"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "MilepostCLITests",
            dependencies: [
                "MilepostCLI", "MilepostSystem", "MilepostTestSupport", "MilepostYAML", "milepost", "milepost-otel",
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: strictSettings
        ),
    ]
)
