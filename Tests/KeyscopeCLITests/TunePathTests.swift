import ArgumentParser
import Foundation
import KeyscopeCore
import KeyscopeInspector
import KeyscopeProtocol
import Testing

@testable import KeyscopeClient
@testable import keyscope

/// What `keyscope tune set` puts in the path, and that the server reads it back as the same text and value.
@Suite struct TunePathTests {
    @Test(arguments: [
        ("toolbar_height", "toolbar_height"), ("a/b", "a%2Fb"), ("a b", "a%20b"), ("#ff8800", "%23ff8800"),
        ("100%", "100%25"), ("+1", "%2B1"), ("a?b", "a%3Fb"), ("a;b&c", "a%3Bb%26c"), ("✓", "%E2%9C%93"),
        ("-._~", "-._~"), (".", "%2E"), ("..", "%2E%2E"), ("...", "..."), ("", ""),
    ])
    func segmentsArePercentEncodedAndDecodeBackToTheSameText(text: String, encoded: String) throws {
        #expect(TunePath.encode(segment: text) == encoded)
        #expect(try TunePath.decode(segment: encoded) == text)
    }

    @Test func theTargetIsTwoSegmentsUnderTune() {
        #expect(TunePath.target(key: "a/b", value: "x y/z") == "/tune/a%2Fb/x%20y%2Fz")
        let target = TunePath.target(key: "k", value: "/ / /")
        #expect(target.split(separator: "/").count == 3)
    }

    /// The number grammar of docs/protocol.md, on the text the CLI was given: the server applies the same function to
    /// the decoded segment, so what `tune set` sends is read as shown here.
    @Test(arguments: [
        ("5", StoreValue.integer(5)), ("-0", .integer(0)), ("2.5", .number(2.5)), ("1e3", .number(1000)),
        ("-1.5E+2", .number(-150)), ("9223372036854775808", .number(9_223_372_036_854_775_808)),
        ("nan", "nan"), ("Infinity", "Infinity"), ("0x10", "0x10"), ("+1", "+1"), ("#ff8800", "#ff8800"),
        ("true", "true"), ("null", "null"), ("01", "01"), ("1.", "1."), (".5", ".5"), ("1e", "1e"), ("-", "-"),
        (" 1", " 1"), ("1 ", "1 "), ("", ""), ("a b", "a b"),
    ])
    func valuesFollowTheJSONNumberGrammar(text: String, value: StoreValue) throws {
        #expect(try TunePath.value(of: text) == value)
        #expect(try TunePath.value(of: TunePath.decode(segment: TunePath.encode(segment: text))) == value)
    }

    @Test func numbersTooLargeForADoubleAreRefusedNotMadeInfinite() {
        #expect(throws: HubError.self) { try TunePath.value(of: "1e999") }
        #expect(throws: HubError.self) { try TunePath.value(of: "-1e400") }
        #expect((try? TunePath.value(of: "1e-400")) == .number(0))
    }

    @Test(arguments: ["%", "%2", "%zz", "a%g0", "%0A", "%00", "%7F", "%FF", "%C3"])
    func badSegmentsAreRefused(segment: String) {
        #expect(throws: HubError.self) { try TunePath.decode(segment: segment) }
    }

    @Test func theSubcommandsParseWithTheirDefaults() throws {
        let set = try TuneSetCommand.parse(["accent", "#ff8800", "--port", "8081"])
        #expect(set.key == "accent" && set.value == "#ff8800" && set.server.port == 8081)
        #expect(try TuneSetCommand.parse(["offset", "--", "-5"]).value == "-5")
        #expect(throws: (any Error).self) { try TuneSetCommand.parse(["", "1"]) }
        #expect(try TuneGetCommand.parse([]).key == nil)
        #expect(try TunePullCommand.parse([]).file == "live-constants.json")
        #expect(try TuneWatchCommand.parse(["x.json", "--url", "http://127.0.0.1:9", "--token", "t"]).file == "x.json")
    }

    @Test func theFileIsPrettySortedAndStable() throws {
        let values: [String: StoreValue] = ["b": 2, "a": ["z": 1.5, "y": .color(StoreColor("#FF8800")!)], "$c": "x"]
        let first = TunablesFile.contents(values)
        #expect(first == TunablesFile.contents(values))
        let text = String(decoding: first, as: UTF8.self)
        #expect(text.hasSuffix("}\n"))
        let order = ["$$c", "\"a\"", "\"y\"", "\"z\"", "\"b\""].map { text.range(of: $0)?.lowerBound }
        #expect(order.allSatisfy { $0 != nil })
        #expect(order.compactMap { $0 } == order.compactMap { $0 }.sorted())
        #expect(try TunablesFile(path: "x.json").parse(first) == values)
    }

    @Test func aFileThatIsNotAnObjectOfTunablesIsAClearError() {
        let file = TunablesFile(path: "live.json")
        for (text, words) in [
            ("{", "is not valid JSON"), ("[1]", "must hold a JSON object"), ("", "is not valid JSON"),
        ] {
            do {
                _ = try file.parse(Data(text.utf8))
                Issue.record("accepted \(text)")
            } catch {
                #expect(error.message.contains("live.json"))
                #expect(error.message.contains(words), "\(error.message)")
            }
        }
    }

    @Test func theHTTPRequestCarriesHostTokenAndLength() throws {
        let client = HTTPClient(endpoint: InspectorEndpoint(host: "127.0.0.1", port: 8081, token: "T0k"))
        let bytes = try client.requestBytes(
            method: "POST", target: "/tune", body: Array("{}".utf8), contentType: "application/json")
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.hasPrefix("POST /tune HTTP/1.1\r\nHost: 127.0.0.1:8081\r\n"))
        #expect(text.contains("\r\nAuthorization: Bearer T0k\r\n"))
        #expect(text.contains("\r\nContent-Type: application/json\r\nContent-Length: 2\r\n"))
        #expect(text.hasSuffix("\r\n\r\n{}"))
        let put = String(
            decoding: try client.requestBytes(method: "PUT", target: "/tune/a/b", body: nil, contentType: ""),
            as: UTF8.self)
        #expect(put.contains("\r\nContent-Length: 0\r\n"))
        #expect(throws: HTTPClientError.self) {
            try client.requestBytes(method: "PUT", target: "/tune/a b/c", body: nil, contentType: "")
        }
        #expect(throws: HTTPClientError.self) {
            try client.requestBytes(method: "GET", target: "tune", body: nil, contentType: "")
        }
    }
}
