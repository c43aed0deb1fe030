import KeyscopeCore
import KeyscopeInspector
import KeyscopeProtocol
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
        #expect(line.isPreferences)
        let segments = try #require(line.preferenceSegments)
        #expect(try PreferencePath.ref(segments: segments) == ref)
        #expect(line.undecodableSegment == nil)
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

    @Test func routesFollowTheLineAsSent() {
        func route(_ line: String, _ method: String, _ decoded: String) -> PreferenceRoute? {
            PreferenceRoute(raw: RawRequestLine(Array(line.utf8)), method: method, decodedPath: decoded)
        }
        #expect(route("GET /api/preferences HTTP/1.1", "GET", "/api/preferences") == .panel(method: "GET"))
        #expect(
            route("PUT /api/preferences/userDefaults/s/a%2Fb HTTP/1.1", "PUT", "/api/preferences/userDefaults/s/a/b")
                == .item(method: "PUT", segments: ["userDefaults", "s", "a%2Fb"]))
        #expect(
            route("POST /api/preferences/refresh HTTP/1.1", "POST", "/api/preferences/refresh")
                == .item(method: "POST", segments: ["refresh"]))
        #expect(route("GET /x/../api/preferences HTTP/1.1", "GET", "/api/preferences") == .unreadable)
        #expect(route("GET /api//preferences HTTP/1.1", "GET", "/api/preferences") == .unreadable)
        #expect(route("GET /api/preferencesX HTTP/1.1", "GET", "/api/preferencesX") == nil)
        #expect(route("GET /api/watches HTTP/1.1", "GET", "/api/watches") == nil)
    }

    @Test func undecodableSegmentsAreFoundUnderBothRawRoutes() {
        for line in [
            "PUT /api/preferences/userDefaults/s/%zz HTTP/1.1", "DELETE /api/preferences/a%0Ab HTTP/1.1",
            "PUT /tune/k/%zz HTTP/1.1",
        ] {
            #expect(RawRequestLine(Array(line.utf8))?.undecodableSegment?.code == .badRequest, "\(line)")
        }
        #expect(RawRequestLine(Array("GET /api/other/%zz HTTP/1.1".utf8))?.undecodableSegment == nil)
    }
}
