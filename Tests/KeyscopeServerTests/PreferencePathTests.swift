import KeyscopeCore
import KeyscopeInspector
import KeyscopePreferences
import KeyscopeProtocol
import KeyscopeTunables
import Testing

@testable import KeyscopeServer

/// The path form of preferences (``PreferencePath``) and how the server routes by the request line as sent.
struct PreferencePathTests {
    @Test(arguments: [
        (
            PreferenceRef(source: .userDefaults, container: "com.shop", key: "theme"),
            "/api/preferences/userDefaults/com.shop/theme"
        ),
        (
            PreferenceRef(source: .secrets, container: "com/shop", key: "a/b c"),
            "/api/preferences/secrets/com%2Fshop/a%2Fb%20c"
        ),
        (PreferenceRef(source: .userDefaults, container: "s", key: ".."), "/api/preferences/userDefaults/s/%2E%2E"),
        (PreferenceRef(source: .userDefaults, container: "s", key: ""), "/api/preferences/userDefaults/s/"),
        (
            PreferenceRef(source: .userDefaults, container: "s", key: "✓?#%"),
            "/api/preferences/userDefaults/s/%E2%9C%93%3F%23%25"
        ),
    ])
    func aTargetReadsBackAsTheSamePreference(ref: PreferenceRef, target: String) throws {
        #expect(PreferencePath.target(ref) == target)
        let line = try #require(RawRequestLine(Array("PUT \(target)?token=T HTTP/1.1".utf8)))
        guard case .route(_, let segments) = Self.table.match(method: "PUT", decodedPath: "/x", raw: line) else {
            Issue.record("\(target) is not routed by its path as sent")
            return
        }
        #expect(try PreferencePath.ref(segments: segments) == ref)
        #expect(Self.table.undecodableSegment(line) == nil)
    }

    @Test(arguments: [
        [], ["userDefaults"], ["userDefaults", "s"], ["userDefaults", "s", "k", "x"], ["keychain", "s", "k"],
        ["USERDEFAULTS", "s", "k"], ["userDefaults", "", "k"], ["userDefaults", "s", "%zz"],
        ["userDefaults", "s", "%0A"],
        ["secrets", "%FF", "k"],
    ])
    func badSegmentsAreBadRequests(segments: [String]) {
        #expect(throws: HubError.self) { try PreferencePath.ref(segments: segments) }
        do {
            _ = try PreferencePath.ref(segments: segments)
        } catch {
            #expect(error.code == .badRequest)
            #expect(!error.message.isEmpty)
        }
    }

    /// The routes of the preference, watch and tunable features.
    static let table = RouteTable(
        builtIn: [], features: [PreferencesFeature(), WatchesFeature(), TunablesFeature()])

    /// A match, said in a line: `PUT /api/preferences/… userDefaults,s,a%2Fb`, `405 POST`, `unreadable`, `404`.
    private func routed(_ line: String, _ method: String, _ decoded: String) -> String {
        switch Self.table.match(method: method, decodedPath: decoded, raw: RawRequestLine(Array(line.utf8))) {
        case .route(let route, let rest):
            "\(route.method.rawValue) \(route.displayPath) \(rest.joined(separator: ","))"
        case .methodNotAllowed(let allow, _): "405 \(allow.joined(separator: ","))"
        case .unreadable: "unreadable"
        case .notFound: "404"
        }
    }

    @Test func routesFollowTheLineAsSent() {
        #expect(routed("GET /api/preferences HTTP/1.1", "GET", "/api/preferences") == "GET /api/preferences ")
        #expect(
            routed("PUT /api/preferences/userDefaults/s/a%2Fb HTTP/1.1", "PUT", "/api/preferences/userDefaults/s/a/b")
                == "PUT /api/preferences/… userDefaults,s,a%2Fb")
        #expect(
            routed("POST /api/preferences/refresh HTTP/1.1", "POST", "/api/preferences/refresh")
                == "POST /api/preferences/refresh ")
        #expect(routed("PUT /api/preferences/refresh HTTP/1.1", "PUT", "/api/preferences/refresh") == "405 POST")
        #expect(routed("GET /x/../api/preferences HTTP/1.1", "GET", "/api/preferences") == "unreadable")
        #expect(routed("GET /api//preferences HTTP/1.1", "GET", "/api/preferences") == "unreadable")
        #expect(routed("GET /api/preferencesX HTTP/1.1", "GET", "/api/preferencesX") == "404")
        #expect(routed("GET /api/watches HTTP/1.1", "GET", "/api/watches") == "GET /api/watches ")
        #expect(routed("PUT /tune/k/.. HTTP/1.1", "PUT", "/tune") == "PUT /tune/… k,..")
        #expect(routed("GET /tune/k/.. HTTP/1.1", "GET", "/tune") == "405 PUT,DELETE")
    }

    @Test func undecodableSegmentsAreFoundUnderEveryRouteReadAsSent() {
        for line in [
            "PUT /api/preferences/userDefaults/s/%zz HTTP/1.1", "DELETE /api/preferences/a%0Ab HTTP/1.1",
            "PUT /tune/k/%zz HTTP/1.1",
        ] {
            let raw = RawRequestLine(Array(line.utf8))
            #expect(raw.flatMap { Self.table.undecodableSegment($0) }?.code == .badRequest, "\(line)")
        }
        let other = RawRequestLine(Array("GET /api/other/%zz HTTP/1.1".utf8))
        #expect(other.flatMap { Self.table.undecodableSegment($0) } == nil)
    }
}
