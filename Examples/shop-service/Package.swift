// swift-tools-version: 6.2
import PackageDescription

// An example service that embeds Keyscope the way a user's would: a Hummingbird HTTP API whose handlers read and
// write Keyscope stores, with the inspector running beside it in one ServiceGroup in debug builds. It depends on
// Keyscope by path (a user's package names the repository URL instead) and uses its public products only.

/// The same upcoming-feature flags as Keyscope's own targets.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "ShopService",
    products: [
        .executable(name: "shop-service", targets: ["shop-service"])
    ],
    dependencies: [
        .package(name: "Keyscope", path: "../.."),
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1"),
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
        // For the tests' requests (methods, statuses, bodies), at the versions Hummingbird resolves to.
        .package(url: "https://github.com/apple/swift-http-types", exact: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio", exact: "2.101.3"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", exact: "2.13.0"),
    ],
    targets: [
        // The service: stores, routes and the application, as a library so the tests run the very same code.
        .target(
            name: "ShopService",
            dependencies: [
                .product(name: "KeyscopeCore", package: "Keyscope"),
                .product(name: "KeyscopeFleet", package: "Keyscope"),
                .product(name: "KeyscopeInspector", package: "Keyscope"),
                .product(name: "KeyscopeRedis", package: "Keyscope"),
                .product(name: "KeyscopeTunables", package: "Keyscope"),
                .product(name: "KeyscopeServiceLifecycle", package: "Keyscope"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            resources: [.copy("Resources/live-constants.json"), .copy("Resources/live-constants.schema.json")],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "shop-service",
            dependencies: [
                "ShopService",
                .product(name: "KeyscopeRedis", package: "Keyscope"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "ShopServiceTests",
            dependencies: [
                "ShopService",
                .product(name: "KeyscopeClient", package: "Keyscope"),
                .product(name: "KeyscopeCore", package: "Keyscope"),
                .product(name: "KeyscopeFleet", package: "Keyscope"),
                .product(name: "KeyscopeInspector", package: "Keyscope"),
                .product(name: "KeyscopeRedis", package: "Keyscope"),
                .product(name: "KeyscopeServiceLifecycle", package: "Keyscope"),
                .product(name: "KeyscopeTesting", package: "Keyscope"),
                .product(name: "KeyscopeTunables", package: "Keyscope"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: strictSettings
        ),
    ]
)
