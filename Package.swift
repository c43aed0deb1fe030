// swift-tools-version: 6.1
import PackageDescription

/// Upcoming-feature flags every target builds with: explicit `any`, imports that say what they expose.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

/// OpenCombine stands in for Combine where Apple's framework does not exist.
let openCombine: Target.Dependency = .product(
    name: "OpenCombine",
    package: "OpenCombine",
    condition: .when(platforms: [.linux, .windows, .android, .wasi, .openbsd])
)

// Linux only (built and tested on Debian 12), so no Apple platform is declared. The code could not build for the
// ones this list used to name: Synchronization's Mutex and Atomic need macOS 15 / iOS 18, the system libraries come
// from pkg-config, and several calls have no Apple path (glibc's socket constants and `send`, `posix_spawnattr_t()`,
// `Process` on iOS). The `#if canImport(Darwin)` branches that exist (the Keychain, ~/Library) are neither built nor
// tested.
let package = Package(
    name: "Keyscope",
    products: [
        .library(name: "KeyscopeCore", targets: ["KeyscopeCore"]),
        // Its types (LogTime, the JSON codec) appear in the public API of the inspector, recordings and the fleet.
        .library(name: "KeyscopeCodec", targets: ["KeyscopeCodec"]),
        .library(name: "KeyscopeTesting", targets: ["KeyscopeTesting"]),
        .library(name: "KeyscopeProtocol", targets: ["KeyscopeProtocol"]),
        .library(name: "KeyscopeInspector", targets: ["KeyscopeInspector", "KeyscopeServer"]),
        .library(name: "KeyscopeServiceLifecycle", targets: ["KeyscopeServiceLifecycle"]),
        .library(name: "KeyscopeClient", targets: ["KeyscopeClient"]),
        .library(name: "KeyscopeTunables", targets: ["KeyscopeTunables"]),
        .library(name: "KeyscopeSecrets", targets: ["KeyscopeSecrets"]),
        .library(name: "KeyscopePreferences", targets: ["KeyscopePreferences"]),
        .library(name: "KeyscopeRecording", targets: ["KeyscopeRecording"]),
        .library(name: "KeyscopeReplayTesting", targets: ["KeyscopeReplayTesting"]),
        .library(name: "KeyscopeRedis", targets: ["KeyscopeRedis"]),
        .library(name: "KeyscopeFleet", targets: ["KeyscopeFleet"]),
        .executable(name: "keyscope", targets: ["keyscope"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
        .package(url: "https://github.com/OpenCombine/OpenCombine", exact: "0.14.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based", exact: "2.0.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", exact: "2.13.0"),
    ],
    targets: [
        // Pure Swift: values, key paths, patches, stores, factory, storages. Foundation + publishers + logging only.
        .target(
            name: "KeyscopeCore",
            dependencies: [
                openCombine,
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // jansson, wrapped by KeyscopeCodec only.
        .systemLibrary(
            name: "CJansson",
            pkgConfig: "jansson",
            providers: [.apt(["libjansson-dev"])]
        ),
        // StoreValue, patches and log events to and from JSON through jansson (byte-for-byte the core's JSON form).
        .target(
            name: "KeyscopeCodec",
            dependencies: ["KeyscopeCore", "CJansson"],
            swiftSettings: strictSettings
        ),
        // The inspector's wire contract, shared by hub, server, client and CLI: protocol constants and route paths,
        // error codes (HubError), the path forms of /tune and /api/preferences, server records and the state folder.
        .target(
            name: "KeyscopeProtocol",
            dependencies: ["KeyscopeCore"],
            swiftSettings: strictSettings
        ),
        // The inspector hub: global sequence numbers, the bounded change log, client cursors, snapshots.
        .target(
            name: "KeyscopeInspector",
            dependencies: [
                "KeyscopeCore", "KeyscopeCodec", "KeyscopeProtocol", .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // libwebsockets, wrapped by KeyscopeLws only: KeyscopeServer, KeyscopeClient and the conformance echo use lws
        // through KeyscopeLws's Swift types, never this module.
        .systemLibrary(
            name: "CLibWebSockets",
            pkgConfig: "libwebsockets",
            providers: [.apt(["libwebsockets-dev"])]
        ),
        // What server, client and conformance echo share of libwebsockets (internal: `package` access, no product),
        // and their only way to it: contexts and the service thread, events and connection handles, lws's logging,
        // message reassembly and sending, closes, HTTP requests and answers, the readiness watch lws polls, and the
        // checks every listener makes before an upgrade (Host, Origin, extension offers).
        .target(
            name: "KeyscopeLws",
            dependencies: ["KeyscopeCore", "CLibWebSockets", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strictSettings
        ),
        // The inspector's HTTP + WebSocket server (libwebsockets): static dashboard, /ws, /api/*, security rules.
        .target(
            name: "KeyscopeServer",
            dependencies: [
                "KeyscopeCore", "KeyscopeCodec", "KeyscopeInspector", "KeyscopeProtocol", "KeyscopeLws",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // The inspector as a swift-service-lifecycle Service, for Hummingbird and Vapor apps.
        .target(
            name: "KeyscopeServiceLifecycle",
            dependencies: [
                "KeyscopeCore", "KeyscopeInspector", "KeyscopeProtocol", "KeyscopeServer",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // Tunable constants: a JSON file copied from bundled defaults, checked by a schema, watched for edits, held in
        // a store the inspector sees (the TunablesEndpoint it serves at /tune).
        .target(
            name: "KeyscopeTunables",
            dependencies: ["KeyscopeCore", "KeyscopeInspector", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strictSettings
        ),
        // libsecret (the Secret Service client), wrapped by KeyscopeSecrets only; Linux only.
        .systemLibrary(
            name: "CLibSecret",
            pkgConfig: "libsecret-1",
            providers: [.apt(["libsecret-1-dev"])]
        ),
        // Secret stores (the keychain's role): the protocol, a headless 0600 file store, Secret Service through
        // libsecret on Linux, the Keychain on Apple platforms.
        .target(
            name: "KeyscopeSecrets",
            dependencies: ["KeyscopeCore", .target(name: "CLibSecret", condition: .when(platforms: [.linux]))],
            swiftSettings: strictSettings
        ),
        // Preferences and secrets: zero-configuration scanning of UserDefaults suites and secret services mirrored
        // into stores the inspector sees (PreferencesEndpoint), property wrappers with publishers and monitors,
        // watched status keys and watch rules (WatchesEndpoint).
        .target(
            name: "KeyscopePreferences",
            dependencies: [
                "KeyscopeCore", "KeyscopeCodec", "KeyscopeInspector", "KeyscopeProtocol", "KeyscopeSecrets",
                openCombine,
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // Record and replay (docs/recording.md): a streaming reader, replay into states and stores, digests, the recorder
        // that writes a hub's log to a file (RecordingsEndpoint), muting.
        .target(
            name: "KeyscopeRecording",
            dependencies: [
                "KeyscopeCore", "KeyscopeCodec", "KeyscopeInspector", .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // Replays as tests: a recording's state at any seq compared with a golden JSON file (Swift Testing issues
        // with a path-by-path diff; KEYSCOPE_UPDATE_GOLDEN=1 writes the goldens), and replays into real stores.
        .target(
            name: "KeyscopeReplayTesting",
            dependencies: ["KeyscopeRecording", "KeyscopeCodec", "KeyscopeCore"],
            swiftSettings: strictSettings
        ),
        // hiredis (the Redis client, RESP2), wrapped by KeyscopeRedis only.
        .systemLibrary(
            name: "CHiredis",
            pkgConfig: "hiredis",
            providers: [.apt(["libhiredis-dev"])]
        ),
        // Redis: a small client over hiredis (URLs, typed replies and errors, reconnection) and RedisBackend, the
        // backend storage that keeps each namespace's document in Redis and syncs it live (docs/fleet.md).
        .target(
            name: "KeyscopeRedis",
            dependencies: ["KeyscopeCore", "CHiredis", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strictSettings
        ),
        // Fleet inspection on Redis (docs/fleet.md): an instance's membership (presence, its log and snapshot
        // published, requests answered through its own write path) and the fleet dashboard's view of every instance.
        .target(
            name: "KeyscopeFleet",
            dependencies: [
                "KeyscopeCore", "KeyscopeCodec", "KeyscopeProtocol", "KeyscopeInspector", "KeyscopeServer",
                "KeyscopeRecording", "KeyscopeRedis", .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // A WebSocket client of the inspector protocol (libwebsockets), for the `keyscope` CLI's client commands.
        .target(
            name: "KeyscopeClient",
            dependencies: ["KeyscopeCore", "KeyscopeCodec", "KeyscopeProtocol", "KeyscopeLws"],
            swiftSettings: strictSettings
        ),
        // Generators of random StoreValues, key paths and JSON spellings for this package's property tests.
        .target(
            name: "KeyscopeGenerators",
            dependencies: ["KeyscopeCore", .product(name: "PropertyBased", package: "swift-property-based")],
            swiftSettings: strictSettings
        ),
        // Test support for Keyscope users and for this package's own tests.
        .target(
            name: "KeyscopeTesting",
            dependencies: ["KeyscopeCore"],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "keyscope",
            dependencies: [
                "KeyscopeCore",
                "KeyscopeCodec",
                "KeyscopeInspector", "KeyscopeProtocol",
                "KeyscopeServer",
                "KeyscopeClient",
                "KeyscopeTunables",
                "KeyscopePreferences",
                "KeyscopeSecrets",
                "KeyscopeRecording",
                "KeyscopeRedis", "KeyscopeFleet",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // The settings app that scripts/record_fixtures.py records for fixtures/recordings/preferences-session.kslog
        // (preference edits, a secret edit and a major-version reset); run by `make fixtures` only.
        .executableTarget(
            name: "KeyscopeFixtureMaker",
            dependencies: [
                "KeyscopeCore", "KeyscopeCodec", "KeyscopeInspector", "KeyscopeProtocol", "KeyscopeServer",
                "KeyscopePreferences",
                "KeyscopeSecrets", .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // The WebSocket echo the Autobahn suite runs against (`make conformance`, docs/conformance.md): the
        // inspector's lws layer with an echo instead of the hub. A test tool, not a product: the shipped server has
        // no echo mode.
        .executableTarget(
            name: "KeyscopeConformanceEcho",
            dependencies: [
                "KeyscopeLws",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // A child process the process tests start, restart and kill -9 (persistence across restarts).
        .executableTarget(
            name: "KeyscopeTestChild",
            dependencies: ["KeyscopeCore"],
            swiftSettings: strictSettings
        ),
        // A small service that embeds the inspector (Inspector.start) and keeps doing its own work: the load tests
        // (Tests/load) break its inspector and kill it -9 while it writes its store, its tunables and a recording.
        .executableTarget(
            name: "KeyscopeHostProbe",
            dependencies: [
                "KeyscopeCore", "KeyscopeInspector", "KeyscopeProtocol", "KeyscopeServer", "KeyscopeTunables",
                "KeyscopeRecording", "KeyscopeFleet",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "KeyscopeCoreTests",
            dependencies: [
                "KeyscopeCore",
                "KeyscopeTesting",
                "KeyscopeGenerators",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "KeyscopeCodecTests",
            dependencies: [
                "KeyscopeCodec",
                "KeyscopeCore",
                "KeyscopeTesting",
                "KeyscopeGenerators",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "KeyscopeInspectorTests",
            dependencies: [
                "KeyscopeInspector", "KeyscopeProtocol", "KeyscopeCodec", "KeyscopeCore", "KeyscopeTesting",
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "KeyscopeLwsTests",
            dependencies: ["KeyscopeLws"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "KeyscopeConformanceEchoTests",
            dependencies: [
                "KeyscopeConformanceEcho", "KeyscopeClient", "KeyscopeLws",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "KeyscopeServerTests",
            dependencies: [
                "KeyscopeServer", "KeyscopeServiceLifecycle", "KeyscopeInspector", "KeyscopeProtocol", "KeyscopeCodec",
                "KeyscopeCore",
                "KeyscopeClient", "KeyscopeTunables", "KeyscopePreferences", "KeyscopeRecording",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "InMemoryLogging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "KeyscopeTunablesTests",
            dependencies: [
                "KeyscopeTunables", "KeyscopeInspector", "KeyscopeProtocol", "KeyscopeCore",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "InMemoryLogging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "KeyscopeSecretsTests",
            dependencies: ["KeyscopeSecrets"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "KeyscopePreferencesTests",
            dependencies: [
                "KeyscopePreferences", "KeyscopeSecrets", "KeyscopeInspector", "KeyscopeProtocol", "KeyscopeCodec",
                "KeyscopeCore",
                "KeyscopeTestChild",
                openCombine,
                .product(name: "Logging", package: "swift-log"),
                .product(name: "InMemoryLogging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "KeyscopeRecordingTests",
            dependencies: [
                "KeyscopeRecording", "KeyscopeInspector", "KeyscopeProtocol", "KeyscopeCodec", "KeyscopeCore",
                "KeyscopeTesting",
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "KeyscopeReplayTestingTests",
            dependencies: [
                "KeyscopeReplayTesting", "KeyscopeRecording", "KeyscopeCodec", "KeyscopeCore", "KeyscopeTesting",
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "KeyscopeRedisTests",
            dependencies: [
                "KeyscopeRedis", "KeyscopeCore", "KeyscopeTesting",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "KeyscopeFleetTests",
            dependencies: [
                "KeyscopeFleet", "KeyscopeCore", "KeyscopeCodec", "KeyscopeInspector", "KeyscopeServer",
                "KeyscopeRecording", "KeyscopeRedis", "KeyscopeTesting",
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "KeyscopeClientTests",
            dependencies: ["KeyscopeClient", "KeyscopeInspector", "KeyscopeProtocol", "KeyscopeCore"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "KeyscopeCLITests",
            dependencies: [
                "keyscope", "KeyscopeClient", "KeyscopeCodec", "KeyscopeCore", "KeyscopeInspector", "KeyscopeProtocol",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "KeyscopeProcessTests",
            dependencies: [
                "KeyscopeCore", "KeyscopeTesting", "KeyscopeTestChild", "keyscope", "KeyscopeInspector",
                "KeyscopeProtocol",
                "KeyscopeServer", "KeyscopeTunables",
            ],
            swiftSettings: strictSettings
        ),
    ]
)
