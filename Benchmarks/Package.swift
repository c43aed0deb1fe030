// swift-tools-version: 6.1
import PackageDescription

// The benchmarks live in their own package so that nothing they need (Hummingbird, the peer server) ever enters
// the main build. Run them with `swift run -c release keyscope-bench` from this directory (or `make bench` from the
// root); `keyscope-bench store`, `codec`, `inspector` (`push`, `latency`, `set-cost`) or `backend` runs one section.

/// The same upcoming-feature flags as the main package's targets.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "KeyscopeBenchmarks",
    dependencies: [
        .package(name: "Keyscope", path: ".."),
        // The peer server of the push benchmark.
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", exact: "2.8.1"),
        // The main package's versions: to keep the peer's logging quiet and to stop it gracefully.
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", exact: "2.13.0"),
    ],
    targets: [
        // jansson for the benchmark client, which parses every frame it receives (the main package's CJansson is
        // not a product).
        .systemLibrary(
            name: "CBenchJansson",
            path: "Sources/CBenchJansson",
            pkgConfig: "jansson",
            providers: [.apt(["libjansson-dev"])]
        ),
        .executableTarget(
            name: "keyscope-bench",
            dependencies: [
                "CBenchJansson",
                .product(name: "KeyscopeCore", package: "Keyscope"),
                // Also brings KeyscopeCodec, which its public API exposes: the codec section benchmarks it.
                .product(name: "KeyscopeInspector", package: "Keyscope"),
                // The backend section: RedisBackend, and RedisTestServer to start a redis-server of its own.
                .product(name: "KeyscopeRedis", package: "Keyscope"),
                .product(name: "KeyscopeFleet", package: "Keyscope"),
                .product(name: "KeyscopeTesting", package: "Keyscope"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Sources/keyscope-bench",
            swiftSettings: strictSettings
        ),
    ]
)
