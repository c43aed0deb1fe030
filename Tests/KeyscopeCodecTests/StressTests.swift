import KeyscopeCodec
import KeyscopeCore
import Testing

/// Many calls in a row and from many tasks: each call makes and releases its own jansson values (a double release
/// would crash, a missing one would only leak, so this mainly checks the former and that nothing is shared).
@Suite("jansson codec under repetition")
struct StressTests {
    static let patch = StorePatch(
        op: .set, keyPath: "cart.items[3].title", oldValue: ["title": "Tea", "qty": 2, "price": 3.5],
        newValue: ["title": "Green tea", "qty": 3, "price": 4.25, "tags": ["hot", "$new"]])

    @Test("links the system jansson 2.x")
    func linksTheSystemJansson() {
        #expect(JanssonCodec.janssonVersion.hasPrefix("2."))
    }

    @Test("100,000 encode/decode round trips of a patch, a value and an error")
    func repeatedRoundTrips() throws {
        let value = Self.patch.jsonObject
        let patchBytes = try JanssonCodec.encode(Self.patch)
        let nulKey = Array(##"{"a\u0000":[1,{"$color":"#FF8800"}]}"##.utf8)
        for round in 0..<100_000 {
            let encoded = try JanssonCodec.encode(Self.patch)
            let decoded = try JanssonCodec.decodePatch(encoded)
            let valueBytes = try JanssonCodec.encode(value)
            let reread = try JanssonCodec.decode(valueBytes)
            if round % 10 == 0 {
                _ = try JanssonCodec.decode(nulKey)
                _ = try? JanssonCodec.decode(#"{"a":[1,2,{"b":{"$color":"bad"}}]}"#)
                _ = try? JanssonCodec.encode(.array([.array([.number(.nan)])]), maxDepth: 2)
            }
            if encoded != patchBytes || decoded != Self.patch || reread != value {
                Issue.record("round \(round) differs")
                return
            }
        }
    }

    @Test("concurrent calls do not share jansson values")
    func concurrentCalls() async throws {
        let expected = try JanssonCodec.encode(Self.patch)
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for _ in 0..<2_000 {
                        let bytes = try JanssonCodec.encode(Self.patch)
                        guard bytes == expected, try JanssonCodec.decodePatch(bytes) == Self.patch else { return false }
                    }
                    return true
                }
            }
            for try await ok in group { #expect(ok) }
        }
    }
}
