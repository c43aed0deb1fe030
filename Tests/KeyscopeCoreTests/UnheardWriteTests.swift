import Foundation
import KeyscopeCore
import PropertyBased
import Synchronization
import Testing

/// A single write on a store that nobody observes, subscribes to, syncs or gates records no patch and builds no
/// change (KeyValueStore+Writes.swift). It must still do exactly what the recorded write does.
@Suite("Writes nobody hears")
struct UnheardWriteTests {
    static let initial: [String: StoreValue] = [
        "a": ["b": 1], "list": [1, ["x": 2]], "n": 5, "m": .emptyObject, "s": "text",
    ]

    /// Paths that exist, that do not, that go through the wrong kind of value, indexes in range, at the end and
    /// past it, a quoted key, the root.
    static let paths: [StoreKeyPath] = [
        "a", "a.b", "a.b.c", "a.new", "a.new.deeper", "list", "list[0]", "list[1]", "list[2]", "list[3]",
        "list[1].x", "list[1].y", "n", "n.x", "n[0]", #"m["k.1"]"#, "m.z", "s", "fresh", "fresh.one.two", "",
    ]

    static let values: [StoreValue] = [1, 2, "v", ["x": 1], [1, 2], .emptyObject, .null, 1.5]

    /// A few random writes of every kind.
    static let operations = Generator<[StoreOperation], Shrink.None<[StoreOperation]>> { rng in
        (0..<Int.random(in: 1...12, using: &rng)).map { _ in
            let path = paths[Int.random(in: 0..<paths.count, using: &rng)]
            let value = values[Int.random(in: 0..<values.count, using: &rng)]
            switch Int.random(in: 0..<4, using: &rng) {
            case 0: return .set(path, value)
            case 1: return .insert(path, value)
            case 2: return .remove(path)
            default: return .merge(path, ["k": value, "b": 7])
            }
        }
    }

    private func newStore() -> KeyValueStore {
        KeyValueStore(id: StoreID(scope: .app, storage: .memory), root: Self.initial)
    }

    private func outcome(_ store: KeyValueStore, _ operation: StoreOperation) -> String {
        do {
            try store.write(operation)
            return "applied"
        } catch {
            return "\(error)"
        }
    }

    @Test("the same writes leave the same state and refuse the same way, observed or not; the observed patches replay")
    func sameAsARecordedWrite() async {
        await propertyCheck(count: 500, input: Self.operations) { operations throws in
            let quiet = newStore()
            let registry = StoreRegistry()
            let heard = newStore()
            try registry.register(heard)
            let changes = Mutex<[StoreChange]>([])
            let token = registry.observe { activity in
                if case .changed(let change) = activity { changes.withLock { $0.append(change) } }
            }
            for operation in operations {
                #expect(outcome(quiet, operation) == outcome(heard, operation), "\(operation)")
                #expect(quiet.snapshot() == heard.snapshot(), "after \(operation)")
            }
            token.cancel()
            var replayed = StoreValue.object(Self.initial)
            for change in changes.withLock({ $0 }) { try replayed.apply(change: change) }
            #expect(replayed == heard.snapshot())
        }
    }

    @Test("the non-throwing forms report a refusal and change nothing on a store nobody hears")
    func refusalsChangeNothing() {
        let store = newStore()
        #expect(!store.set("n.x", 1), "a name into an integer")
        #expect(!store.set("list[5]", 1), "past the end")
        #expect(!store.insert("a", 1), "an insert needs an index")
        #expect(!store.set("", 1), "the root must be an object")
        #expect(store.snapshot() == .object(Self.initial))
        #expect(store.set("a.b", 2))
        #expect(store.remove("nothing.here"))
        #expect(store.get("a.b") == 2)
    }

    @Test("a write that a subscription hears records and delivers, and the store stays quiet for other paths")
    func subscriptionsStillHear() throws {
        let store = newStore()
        let received = Mutex<[StoreValue?]>([])
        let subscription = store.publisher(for: "a.b").sink { value in received.withLock { $0.append(value) } }
        #expect(store.set("a.b", 3))
        #expect(store.set("n", 6))
        #expect(store.set("a.b", 3), "an equal value is not delivered again")
        #expect(store.set("a.b", 4))
        #expect(received.withLock { $0 } == [1, 3, 4])
        subscription.cancel()
    }
}
