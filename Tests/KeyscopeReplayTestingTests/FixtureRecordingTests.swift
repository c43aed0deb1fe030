import Foundation
import KeyscopeCodec
import KeyscopeCore
import KeyscopeRecording
import KeyscopeReplayTesting
import Testing

/// The package's own recordings (fixtures/recordings) replayed as tests: the state at the end, and at the points
/// each story turns on, must equal the golden files in fixtures/recordings/golden (written once with
/// `KEYSCOPE_UPDATE_GOLDEN=1`, checked against `keyscope state --at`).
@Suite struct FixtureRecordingTests {
    private static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("fixtures/recordings")

    private static func recording(_ name: String) -> ReplayRecording {
        ReplayRecording(folder.appendingPathComponent(name))
    }

    private static func golden(_ name: String) -> URL {
        folder.appendingPathComponent("golden").appendingPathComponent(name)
    }

    @Test(arguments: ["checkout-session", "tunables-session", "preferences-session"])
    func theEndStateMatchesItsGolden(name: String) throws {
        let differences = try Self.recording("\(name).kslog").expectState(
            matchesGolden: Self.golden("\(name).end.json"))
        #expect(differences.isEmpty)
    }

    /// The checkout story: the first order placed (one transaction in `app/memory`) and its scenario store removed.
    @Test func theCheckoutStoryMatchesItsGoldenWhenTheFirstCheckoutEnds() throws {
        let url = Self.folder.appendingPathComponent("checkout-session.kslog")
        var removalSeq: Int64?
        _ = try RecordingReader.replay(url) { (entry: LogEntry, _: ReplayState) in
            guard removalSeq == nil, case .removed(let id) = entry.event else { return }
            if id.description == "scenario:checkout/memory" { removalSeq = entry.seq }
        }
        let seq = try #require(removalSeq, "the checkout fixture ends no checkout")
        let differences = try Self.recording("checkout-session.kslog").expectState(
            at: seq, matchesGolden: Self.golden("checkout-session.first-checkout-ended.json"))
        #expect(differences.isEmpty)
    }

    /// The preferences story turns on the profile store's major-version reset: just before it the old data is
    /// there, right after it the store is `{}` at 2.0.0.
    @Test func thePreferencesStoryMatchesItsGoldensAroundTheReset() throws {
        let url = Self.folder.appendingPathComponent("preferences-session.kslog")
        var resetSeq: Int64?
        let profile = StoreID("app/userPrefs:com.keyscope.fixture.profile")!
        _ = try RecordingReader.replay(url) { (entry: LogEntry, state: ReplayState) in
            if case .reset(let id, let version) = entry.event, id == profile {
                resetSeq = entry.seq
                #expect(version.major == 2)
                #expect(state[id]?.root == .emptyObject)
            }
        }
        let seq = try #require(resetSeq, "the preferences fixture has no reset of \(profile)")
        let recording = Self.recording("preferences-session.kslog")
        #expect(
            try recording.expectState(
                at: seq - 1, matchesGolden: Self.golden("preferences-session.before-reset.json")
            ).isEmpty)
        #expect(
            try recording.expectState(at: seq, matchesGolden: Self.golden("preferences-session.after-reset.json"))
                .isEmpty)
    }

    /// The preferences fixture (and its goldens) were made when the secret mirror was
    /// `app/backend:secrets.<service>`: they still load, the mirror read as `app/secrets:<service>` in the header,
    /// in every change and in the golden files, so the state has one mirror under its current id.
    @Test func aRecordingWithTheFormerSecretMirrorIDLoadsUnderTheCurrentOne() throws {
        let former = "app/backend:secrets.com.keyscope.fixture.api"
        let current = StoreID("app/secrets:com.keyscope.fixture.api")!
        let url = Self.folder.appendingPathComponent("preferences-session.kslog")
        let text = try String(contentsOf: url, encoding: .utf8)
        #expect(text.contains("\"id\":\"\(former)\"") && text.contains("\"store\":\"\(former)\""))
        let golden = try String(contentsOf: Self.golden("preferences-session.end.json"), encoding: .utf8)
        #expect(golden.contains(former))
        var mirrorChanges = 0
        let replay = try RecordingReader.replay(url) { (entry: LogEntry, _: ReplayState) in
            guard case .change(let change) = entry.event else { return }
            #expect(change.storeID.description != former)
            if change.storeID == current { mirrorChanges += 1 }
        }
        #expect(mirrorChanges == 2)  // a secret rotated, another deleted
        #expect(replay.state.storeIDs.contains(current))
        let state = try Self.recording("preferences-session.kslog").state()
        #expect(state[current]?.root == ["token": "•••• (34)"])
        #expect(state.value[former] == nil)
    }
}
