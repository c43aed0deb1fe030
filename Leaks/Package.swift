// swift-tools-version: 6.1
import PackageDescription

// The leak check, in its own package so that its sanitizer build never touches the main build: `make leaks` builds
// `keyscope-leaks` with `-sanitize=address` into .build-leaks and runs it under LeakSanitizer with
// Leaks/lsan.supp (docs/hardening.md "Leak check").

/// The same upcoming-feature flags as the main package's targets.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "KeyscopeLeaks",
    dependencies: [
        .package(name: "Keyscope", path: ".."),
        // The main package's version, to quiet the inspector's per-start log line.
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
    ],
    targets: [
        // Starts and stops the inspector again and again with WebSocket clients attached.
        .executableTarget(
            name: "keyscope-leaks",
            dependencies: [
                .product(name: "KeyscopeCore", package: "Keyscope"),
                .product(name: "KeyscopeInspector", package: "Keyscope"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        )
    ]
)
