import Dispatch
import Foundation
import KeyscopeCore
import Synchronization
import Testing

@testable import KeyscopeInspector

/// A reader that must not wait (the server's service thread) gets the subscription lists of a store whose lock a
/// write holds at once, as the store last reported them.
@Suite struct SubscriptionsWithoutWaitingTests {
    @Test func aReaderThatMustNotWaitGetsTheListsOfAStoreAWriteHolds() throws {
        let hub = startedHub()
        let store = try addStore(hub, "busy", root: ["a": 1])
        let (_, cursor) = hub.makeCursor()
        let subscription = store.publisher(for: "a", label: "Panel").sink { _ in }
        defer { subscription.cancel() }
        let held = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let writer = DispatchSemaphore(value: 0)
        Thread {
            _ = try? store.transaction { _ in
                held.signal()
                release.wait()
            }
            writer.signal()
        }.start()
        #expect(held.wait(timeout: .now() + 30) == .success)
        let lists = Mutex<(direct: [SubscriptionInfo], update: [SubscriptionInfo]?)?>(nil)
        let read = DispatchSemaphore(value: 0)
        Thread {
            let direct = hub.subscriptionsWithoutWaiting()
            let update = cursor.subscriptionsUpdate()
            lists.withLock { $0 = (direct, update) }
            read.signal()
        }.start()
        // Read while the transaction still holds the store (the guard only keeps a hang from blocking the suite).
        let readWhileHeld = read.wait(timeout: .now() + 30) == .success
        release.signal()
        #expect(writer.wait(timeout: .now() + 30) == .success)
        #expect(readWhileHeld, "the reader waited for the store's lock")
        let got = try #require(lists.withLock { $0 })
        #expect(got.direct.map(\.label) == ["Panel"])
        #expect(got.update?.map(\.label) == ["Panel"])
        // Without a writer, the list is read from the store, counts and all.
        #expect(hub.subscriptionsWithoutWaiting() == hub.subscriptions())
    }
}
