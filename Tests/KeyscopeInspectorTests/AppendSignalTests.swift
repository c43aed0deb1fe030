import KeyscopeCore
import KeyscopeInspector
import Testing

/// The hub's append signal: its hook is called once per burst of changes (until the reader re-arms it), and the hub
/// holds a hook only while it is installed.
@Suite struct AppendSignalTests {
    /// An object a hook captures, to see when the hub lets go of the hook.
    final class Capture: Sendable {
        let calls = Collected<Int>()
    }

    @Test func theHookIsCalledOncePerBurstUntilTheReaderRearmsIt() throws {
        let hub = InspectorHub(registry: StoreRegistry())
        let calls = Collected<Int>()
        hub.appendSignal.install { calls.append(1) }
        hub.start()
        let store = try addStore(hub, "w")
        #expect(calls.all.count == 1, "the registration raised it")
        store.set("a", 1)
        store.set("b", 2)
        #expect(calls.all.count == 1, "still raised: the reader has not read yet")
        hub.appendSignal.rearm()
        store.set("a", 3)
        store.set("a", 4)
        #expect(calls.all.count == 2)
        hub.appendSignal.rearm()
        let subscription = store.publisher(for: "a", label: "A").sink { _ in }
        #expect(calls.all.count == 3, "a changed subscription list raises it too")
        hub.appendSignal.rearm()
        subscription.cancel()
        #expect(calls.all.count == 4)
        hub.appendSignal.rearm()
        hub.stop()
        #expect(calls.all.count == 5, "stopping appends the stores' `removed` entries")
        #expect(hub.lastSeq == 6)
    }

    @Test func aReplacedOrRemovedHookIsReleasedAndNeverCalledAgain() throws {
        let hub = InspectorHub(registry: StoreRegistry())
        weak var firstCapture: Capture?
        weak var secondCapture: Capture?
        var first: Capture? = Capture()
        var second: Capture? = Capture()
        firstCapture = first
        secondCapture = second
        let firstCalls = first!.calls
        let secondCalls = second!.calls
        hub.appendSignal.install { [first] in first?.calls.append(1) }
        hub.start()
        let store = try addStore(hub, "w")
        store.set("a", 1)  // still raised: no second call
        hub.appendSignal.install { [second] in second?.calls.append(1) }
        first = nil
        second = nil
        #expect(firstCapture == nil, "the replaced hook was released")
        #expect(secondCapture != nil)
        store.set("a", 2)  // a new hook starts lowered: called at once
        store.set("a", 3)
        hub.appendSignal.install(nil)
        #expect(secondCapture == nil, "the removed hook was released")
        #expect(!hub.appendSignal.isInstalled)
        hub.appendSignal.rearm()
        store.set("a", 4)
        #expect(firstCalls.all.count == 1, "the registration")
        #expect(secondCalls.all.count == 1)
        hub.stop()
    }

    @Test func installingAndRemovingHooksManyTimesKeepsNone() throws {
        let hub = InspectorHub(registry: StoreRegistry())
        hub.start()
        defer { hub.stop() }
        let store = try addStore(hub, "w")
        var released = 0
        for round in 1...200 {
            weak var captured: Capture?
            do {
                let capture = Capture()
                captured = capture
                hub.appendSignal.install { capture.calls.append(round) }
                #expect(hub.appendSignal.isInstalled)
                store.set("n", .integer(Int64(round)))
                #expect(capture.calls.all == [round], "each new hook hears the next change")
                hub.appendSignal.install(nil)
            }
            if captured == nil { released += 1 }
        }
        #expect(released == 200)
        #expect(!hub.appendSignal.isInstalled)
    }
}
