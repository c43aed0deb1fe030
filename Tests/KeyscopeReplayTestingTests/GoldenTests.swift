import Foundation
import KeyscopeCore
import KeyscopeRecording
import KeyscopeReplayTesting
import KeyscopeTesting
import Testing

/// Golden checks against `fixtures/broken/torn-tail.kslog` (which loads): a match passes, a mismatch records the
/// diff, update mode writes the golden and says so, and replaying into stores matches the replayed state.
@Suite struct GoldenTests {
    private let recording = ReplayRecording(Fixtures.url("broken/torn-tail.kslog"))

    private func temporaryGolden(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("keyscope-golden-\(UUID())")
            .appendingPathComponent(name)
    }

    @Test func aMatchingGoldenPasses() throws {
        let golden = temporaryGolden("end.json")
        defer { try? FileManager.default.removeItem(at: golden.deletingLastPathComponent()) }
        try FileManager.default.createDirectory(
            at: golden.deletingLastPathComponent(), withIntermediateDirectories: true)
        // Any JSON formatting will do: the golden is compared as a value.
        try Data(
            #"""
            { "scenario:checkout/memory": {"step": "address"},
              "app/memory": {"cart": {"total": 45, "currency": "EUR",
                                      "items": [{"title": "Green tea", "sku": "TEA-01", "price": 45}]}} }
            """#.utf8
        ).write(to: golden)
        let diff = try recording.expectState(matchesGolden: golden, update: false)
        #expect(diff.isEmpty)
    }

    @Test func aMismatchRecordsAReadableDiff() throws {
        let golden = temporaryGolden("at-1.json")
        defer { try? FileManager.default.removeItem(at: golden.deletingLastPathComponent()) }
        try FileManager.default.createDirectory(
            at: golden.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(#"{"app/memory": {"cart": {"currency": "EUR", "items": [], "total": 100}}}"#.utf8).write(to: golden)
        var diff: StateDiff?
        try withKnownIssue {
            diff = try recording.expectState(at: 1, matchesGolden: golden, update: false)
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined()
            return text.contains("The state of torn-tail.kslog at seq 1 differs from at-1.json in 3 places")
                && text.contains("app/memory: cart.total: expected 100, got 45")
        }
        #expect(
            diff?.differences == [
                "app/memory: cart.items: expected 0 elements, got 1",
                "app/memory: cart.items[0]: unexpected {\"price\":45,\"sku\":\"TEA-01\",\"title\":\"Green tea\"}",
                "app/memory: cart.total: expected 100, got 45",
            ])
    }

    @Test func aMissingGoldenIsAnIssue() throws {
        let golden = temporaryGolden("none.json")
        try withKnownIssue {
            try recording.expectState(matchesGolden: golden, update: false)
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().contains("KEYSCOPE_UPDATE_GOLDEN=1")
        }
    }

    @Test func updateModeWritesTheGoldenAndSaysSo() throws {
        let golden = temporaryGolden("nested/at-0.json")
        defer {
            try? FileManager.default.removeItem(at: golden.deletingLastPathComponent().deletingLastPathComponent())
        }
        try withKnownIssue {
            try recording.expectState(at: 0, matchesGolden: golden, update: true)
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().contains("was written to")
        }
        let written = try String(contentsOf: golden, encoding: .utf8)
        #expect(written.hasSuffix("}\n"))
        #expect(try StoreValue(jsonText: written) == recording.state(at: 0).value)
        // And now it matches.
        #expect(try recording.expectState(at: 0, matchesGolden: golden, update: false).isEmpty)
    }

    @Test func aBadRecordingThrows() {
        let broken = ReplayRecording(Fixtures.url("broken/bad-seq.kslog-broken"))
        #expect(throws: RecordingError.self) {
            try broken.expectState(matchesGolden: temporaryGolden("x.json"), update: false)
        }
    }

    @Test func replayIntoStoresMatchesTheReplayedState() async throws {
        let replay = try recording.stores()
        let cart = try #require(replay.store("app/memory"))
        var totals = cart.values(for: "cart.total").makeAsyncIterator()
        #expect(await totals.next() == .some(0))
        let summary = try await replay.play()
        #expect(await totals.next() == .some(45))
        #expect(summary.events == 3)
        #expect(replay.replayer.value == (try recording.state().value))
        #expect(replay.registry.stores.count == 2)
    }
}
