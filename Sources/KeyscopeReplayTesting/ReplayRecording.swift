public import Foundation
public import KeyscopeCore
public import KeyscopeRecording

/// A recording (`.kslog`) to test against: replayed into fresh states, its state at the end or at any `seq` is
/// compared with a golden JSON file, or it is replayed into real stores for tests that want publishers.
///
/// ```swift
/// import KeyscopeReplayTesting
/// import Testing
///
/// @Test func checkoutLeavesAnOrder() throws {
///     let recording = ReplayRecording(URL(fileURLWithPath: "fixtures/recordings/checkout-session.kslog"))
///     try recording.expectState(matchesGolden: GoldenFiles.url("golden/checkout-end.json"))
///     try recording.expectState(at: 40, matchesGolden: GoldenFiles.url("golden/checkout-at-40.json"))
///     #expect(try recording.state().value["app/memory"]?["cart.total"] == 0)
/// }
/// ```
/// A mismatch records a Swift Testing issue with a path-by-path diff (`app/memory: cart.total: expected 100,
/// got 90`). `KEYSCOPE_UPDATE_GOLDEN=1` writes the golden files instead, and records an issue saying so, so that a
/// run that rewrote goldens never passes by accident.
public struct ReplayRecording: Sendable {
    /// The recording's file.
    public let url: URL
    /// The longest line accepted.
    public var maxLineLength: Int

    public init(_ url: URL, maxLineLength: Int = LineReader.defaultMaxLineLength) {
        self.url = url
        self.maxLineLength = maxLineLength
    }

    /// The state after event `seq` (the header's for 0; after the last event for `nil`). The whole recording is
    /// checked, so a bad line anywhere throws.
    /// - Throws: ``KeyscopeRecording/RecordingError``.
    public func state(at seq: Int64? = nil) throws -> ReplayState {
        try RecordingReader.replay(url, upTo: seq, maxLineLength: maxLineLength).state
    }

    /// The summary of the whole recording (events, stores, times, state digest).
    public func summary() throws -> RecordingSummary {
        try RecordingReader.replay(url, maxLineLength: maxLineLength).summary
    }

    /// Real stores made from the header, registered in `registry`, ready to ``StoreReplay/play(pace:)``:
    ///
    /// ```swift
    /// let replay = try recording.stores()
    /// let totals = replay.store("app/memory")!.values(for: "cart.total")
    /// let summary = try await replay.play()
    /// #expect(replay.replayer.value == try recording.state().value)
    /// ```
    /// - Throws: ``KeyscopeRecording/RecordingError`` for a bad header or a store already in `registry`.
    public func stores(registry: StoreRegistry = StoreRegistry()) throws -> StoreReplay {
        let reader = try RecordingReader(contentsOf: url, maxLineLength: maxLineLength)
        return StoreReplay(reader: reader, replayer: try StoreReplayer(header: reader.header, registry: registry))
    }
}

/// A recording's stores, made and registered, and the events still to apply to them; see
/// ``ReplayRecording/stores(registry:)``.
///
/// Not thread-safe: use it from one task.
public final class StoreReplay {
    /// The stores and the state they are checked against.
    public let replayer: StoreReplayer
    private let reader: RecordingReader

    init(reader: RecordingReader, replayer: StoreReplayer) {
        self.reader = reader
        self.replayer = replayer
    }

    /// Where the stores are registered.
    public var registry: StoreRegistry { replayer.registry }

    /// The live store with id `id` (a store id such as `app/memory`; one renamed since reads as its current form),
    /// if the replay has it now.
    public func store(_ id: String) -> KeyValueStore? {
        StoreID.recorded(id).flatMap { replayer.store($0) }
    }

    /// Applies every remaining event, as fast as possible unless `pace` says otherwise.
    /// - Throws: the first ``KeyscopeRecording/RecordingError``.
    @discardableResult
    public func play(pace: StoreReplayer.Pace = .asFastAsPossible) async throws(RecordingError) -> RecordingSummary {
        try await replayer.play(reader, pace: pace)
    }
}
