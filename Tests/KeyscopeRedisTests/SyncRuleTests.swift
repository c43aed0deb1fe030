import Testing

@testable import KeyscopeRedis

/// The per-key rules of a synced store (docs/fleet.md "The conflict rule"), step by step, in the orders the pusher
/// and the reader can meet them.
@Suite struct SyncRuleTests {
    @Test func aNewerWriteFromElsewhereIsTakenAndAnOlderOneNot() {
        var state = RedisSync.State()
        #expect(step(&state) { $0.takesRemote("flags", at: 5) } == true)
        #expect(state.known["flags"] == 5)
        #expect(step(&state) { $0.takesRemote("flags", at: 4) } == false)
        #expect(step(&state) { $0.takesRemote("flags", at: 5) } == false)
        #expect(step(&state) { $0.takesRemote("flags", at: 6) } == true)
    }

    /// The local change is pushed after the other instance's write: it wins, the write is not applied in between.
    @Test func aPendingKeyKeepsItsValueWhenItsPushComesLater() {
        var state = RedisSync.State()
        state.needsJoin = false
        state.pending["flags"] = 1
        state.pushing = true
        #expect(step(&state) { $0.takesRemote("flags", at: 7) } == false)
        #expect(step(&state) { $0.acknowledge(["flags": 1], version: 8) } == false)
        #expect(state.pending.isEmpty && state.passedOver.isEmpty && !state.needsJoin && !state.pushing)
        #expect(state.known["flags"] == 8)
        #expect(step(&state) { $0.takesRemote("flags", at: 7) } == false)
    }

    /// The reader met another instance's write (version 9) while this store's push of the key was on its way, and
    /// Redis ran that push first (version 8): the other write is the key's value everywhere else, so a join is asked
    /// for, and the join takes it (its stamp, 9, is newer than the 8 known here).
    @Test func aWriteRedisOrderedAfterThePushOnItsWayIsTakenByAJoin() {
        var state = RedisSync.State()
        state.needsJoin = false
        state.pending["flags"] = 1
        state.pushing = true
        #expect(step(&state) { $0.takesRemote("flags", at: 9) } == false)
        #expect(step(&state) { $0.acknowledge(["flags": 1], version: 8) } == true)
        #expect(state.needsJoin && state.joinRequests == 1)
        #expect(state.pending.isEmpty && state.passedOver.isEmpty)
        #expect(step(&state) { $0.takesRemote("flags", at: 9) } == true)
    }

    /// Changed here again while the push was on its way: the key stays pending, and its next push (after anything
    /// Redis holds now) wins; no join is needed.
    @Test func aKeyChangedAgainStaysPendingAndNeedsNoJoin() {
        var state = RedisSync.State()
        state.needsJoin = false
        state.pending["flags"] = 2
        #expect(step(&state) { $0.takesRemote("flags", at: 9) } == false)
        #expect(step(&state) { $0.acknowledge(["flags": 1], version: 8) } == false)
        #expect(state.pending["flags"] == 2 && !state.needsJoin)
        #expect(step(&state) { $0.acknowledge(["flags": 2], version: 10) } == false)
        #expect(state.pending.isEmpty && state.passedOver.isEmpty && !state.needsJoin)
        #expect(state.known["flags"] == 10)
    }

    @Test func aNewIncarnationForgetsEveryVersion() {
        var state = RedisSync.State()
        state.pending["a"] = 1
        _ = step(&state) { $0.takesRemote("a", at: 3) }
        _ = step(&state) { $0.takesRemote("b", at: 4) }
        state.forgetVersions()
        #expect(state.known.isEmpty && state.passedOver.isEmpty)
        #expect(state.pending["a"] == 1)
    }

    /// Runs one rule on `state` (`#expect` cannot take a mutating call).
    private func step(_ state: inout RedisSync.State, _ rule: (inout RedisSync.State) -> Bool) -> Bool {
        rule(&state)
    }
}
