import Foundation
import KeyscopeClient
import KeyscopeCore
import KeyscopeInspector
import KeyscopeTunables
import Testing

@testable import KeyscopeServer

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A real server on a free loopback port whose hub has ``FakeTunables`` (or none), asked with the package's own
/// HTTP client, which sends request targets exactly as given.
struct TuneHarness {
    let hub: InspectorHub
    let server: InspectorServer
    let tunables: FakeTunables?

    static let schema: [String: FakeTunables.Rule] = [
        "height": .integer(0...200), "ratio": .number, "title": .string, "accent": .color, "free": .any,
        "a/b": .any, "a.b": .any, "x[0]": .any, "extra": .any,
    ]

    static let initial: [String: StoreValue] = [
        "height": 48, "ratio": 1.5, "title": "Cart", "accent": .color(StoreColor("#FF8800")!), "free": "x",
    ]

    /// A started server; `withTunables: false` gives one without tunables.
    init(
        withTunables: Bool = true, required: Set<String> = [], configure: (inout ServerOptions) -> Void = { _ in }
    ) throws {
        var options = ServerOptions()
        options.port = 0
        options.writesServerRecord = false
        configure(&options)
        let hub = InspectorHub(registry: StoreRegistry(), options: HubOptions(readOnly: options.readOnly))
        try hub.registry.register(KeyValueStore(id: StoreID(scope: .app, storage: .memory), root: ["a": 1]))
        tunables =
            withTunables
            ? try FakeTunables(registry: hub.registry, values: Self.initial, schema: Self.schema, required: required)
            : nil
        hub.tunablesFeature.endpoint = tunables
        self.hub = hub
        server = InspectorServer(hub: hub, options: options)
        try server.start()
    }

    func stop() { server.stop() }

    var endpoint: InspectorEndpoint {
        InspectorEndpoint(host: "127.0.0.1", port: server.port ?? 0, token: server.token ?? "")
    }

    /// The tunables' store root as an object.
    var values: [String: StoreValue] { tunables?.currentValues() ?? [:] }

    /// One request; the body's JSON (nil when it has none or is not JSON).
    func call(
        _ method: String, _ target: String, body: String? = nil, contentType: String = "application/json",
        token: String? = nil, headers: [(name: String, value: String)] = []
    ) throws -> (status: Int, json: StoreValue?, response: HTTPResponse) {
        var endpoint = self.endpoint
        if let token { endpoint.token = token }
        let response = try HTTPClient(endpoint: endpoint).send(
            method: method, target: target, body: body.map { Array($0.utf8) }, contentType: contentType,
            headers: headers)
        return (response.status, try? response.json(), response)
    }

    /// The error code of a JSON error body.
    static func code(_ json: StoreValue?) -> String? { json?["error"]?["code"]?.stringValue }
}

/// Sends a request's bytes in pieces, `pauseMilliseconds` apart, and reads the response until the server closes: a request
/// line split over several TCP segments.
func sendInPieces(_ pieces: [String], port: Int, pauseMilliseconds: UInt32) throws -> String {
    #if canImport(Glibc)
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
    let fd = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    try #require(fd >= 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
    }
    try #require(connected == 0)
    for (index, piece) in pieces.enumerated() {
        if index > 0 { usleep(pauseMilliseconds * 1000) }
        let bytes = Array(piece.utf8)
        try #require(bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) } == bytes.count)
    }
    var received: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { break }
        received += chunk[..<count]
    }
    return String(decoding: received, as: UTF8.self)
}
