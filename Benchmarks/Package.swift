// swift-tools-version: 6.1
import PackageDescription

// The benchmarks live in their own package so that nothing they need ever enters the main build.
// Run them with `swift run -c release keyscope-bench` from this directory (or `make bench` from the root).

/// The same upcoming-feature flags as the main package's targets.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "KeyscopeBenchmarks",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10)],
    dependencies: [
        .package(name: "Keyscope", path: "..")
    ],
    targets: [
        .executableTarget(
            name: "keyscope-bench",
            dependencies: [.product(name: "KeyscopeCore", package: "Keyscope")],
            path: "Sources/keyscope-bench",
            swiftSettings: strictSettings
        )
    ]
)
