import Foundation
import KeyscopeCodec
import KeyscopeCore
import KeyscopeRecording
import KeyscopeTesting
import Synchronization
import Testing

/// Random sessions on real stores, recorded and replayed: the replayed state equals the stores' at every seq the
/// session noted, and replaying into real stores reproduces both the state and the registry's activity.
@Suite struct PropertyReplayTests {
    static let seeds: [UInt64] = (1...24).map { $0 &* 0x9E37_79B9 }

    @Test(arguments: seeds)
    func replayReproducesTheRecordedStatesAtEverySeq(seed: UInt64) throws {
        var session = PropertySession(seed: seed)
        let outcome = try session.run(steps: 120)
        var random = SplitMix64(seed: seed)
        let reader = try RecordingReader(bytes: outcome.bytes, chunkSize: random.next(in: 1...4096))
        var checked = 0
        let result = try reader.replay { entry, state in
            guard let expected = outcome.checkpoints[entry.seq] else { return }
            #expect(state.value == expected, "seed \(seed), seq \(entry.seq)")
            checked += 1
        }
        #expect(result.summary.events == outcome.events.count)
        #expect(result.state.value == outcome.checkpoints[Int64(outcome.events.count)])
        #expect(checked > 0 || outcome.events.isEmpty)
        // The header's state, asked for as seq 0.
        let header = try RecordingReader(bytes: outcome.bytes).replay(upTo: 0)
        #expect(header.state.value == outcome.checkpoints[0])
        #expect(result.summary.stateDigest == SHA256.hash(result.state.jsonBytes).hex)
    }

    @Test(arguments: seeds)
    func replayIntoRealStoresReproducesStateAndActivity(seed: UInt64) async throws {
        var session = PropertySession(seed: seed)
        let outcome = try session.run(steps: 120)
        let registry = StoreRegistry()
        let heard = Mutex<[LogEvent]>([])
        let token = registry.observe { activity in
            if let event = LogEvent(activity) { heard.withLock { $0.append(event) } }
        }
        defer { token.cancel() }
        let reader = try RecordingReader(bytes: outcome.bytes)
        let replayer = try StoreReplayer(header: reader.header, registry: registry)
        let registeredFromHeader = heard.withLock { $0.count }
        #expect(registeredFromHeader == reader.header.stores.count)
        let summary = try await replayer.play(reader)
        let expected = try #require(outcome.checkpoints[Int64(outcome.events.count)])
        #expect(replayer.value == expected, "seed \(seed)")
        #expect(replayer.state.value == expected)
        #expect(summary.events == outcome.events.count)
        let replayed = Array(heard.withLock { $0 }.dropFirst(registeredFromHeader))
        #expect(replayed.count == outcome.events.count, "seed \(seed)")
        for (index, (got, recorded)) in zip(replayed, outcome.events).enumerated() where got != recorded {
            Issue.record("seed \(seed), seq \(index + 1): replayed \(got), recorded \(recorded)")
            break
        }
    }
}
