// swift-tools-version: 6.1
import PackageDescription

// libFuzzer targets over the main package, in their own package so that the sanitizer builds never touch the main
// build. `make fuzz` builds them with `-sanitize=fuzzer,address` into .build-fuzz and runs each for a bounded time
// (docs/hardening.md "Fuzzing"). Each executable is one fuzz target: libFuzzer's own options apply
// (`.build-fuzz/release/fuzz-codec -help=1`), and a file argument replays that input.

/// The same upcoming-feature flags as the main package's targets.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "KeyscopeFuzz",
    dependencies: [
        .package(name: "Keyscope", path: "..")
    ],
    targets: [
        // libFuzzer's entry point `LLVMFuzzerRunDriver` (from the toolchain's clang_rt.fuzzer, linked by
        // `-sanitize=fuzzer`).
        .systemLibrary(name: "CLibFuzzer"),
        // The driver every target starts from, and the checks that turn a broken property into a crash.
        .target(
            name: "FuzzSupport",
            dependencies: ["CLibFuzzer"],
            swiftSettings: strictSettings
        ),
        // StoreKeyPath(parsing:): canonical form round trip, error columns.
        .executableTarget(
            name: "fuzz-keypath",
            dependencies: ["FuzzSupport", .product(name: "KeyscopeCore", package: "Keyscope")],
            swiftSettings: strictSettings
        ),
        // JanssonCodec: values, patches, log lines and headers; round trips, the core reader as a second opinion,
        // depth limits.
        .executableTarget(
            name: "fuzz-codec",
            dependencies: [
                "FuzzSupport", .product(name: "KeyscopeCore", package: "Keyscope"),
                .product(name: "KeyscopeRecording", package: "Keyscope"),
            ],
            swiftSettings: strictSettings
        ),
        // The request dispatcher: one client message in, one reply out, against a real hub and stores.
        .executableTarget(
            name: "fuzz-request",
            dependencies: [
                "FuzzSupport", .product(name: "KeyscopeCore", package: "Keyscope"),
                .product(name: "KeyscopeInspector", package: "Keyscope"),
                .product(name: "KeyscopeTunables", package: "Keyscope"),
                .product(name: "KeyscopePreferences", package: "Keyscope"),
            ],
            swiftSettings: strictSettings
        ),
        // RecordingReader and ReplayState over a whole recording in memory.
        .executableTarget(
            name: "fuzz-recording",
            dependencies: [
                "FuzzSupport", .product(name: "KeyscopeCore", package: "Keyscope"),
                .product(name: "KeyscopeRecording", package: "Keyscope"),
            ],
            swiftSettings: strictSettings
        ),
    ]
)
