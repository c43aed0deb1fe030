import Dispatch
import Foundation
import KeyscopeCore
import KeyscopeInspector
import Synchronization
import Testing

/// A hub on a private registry, started. Its delivery-count timer is off unless asked for, so that a tick never
/// lands in the middle of a test that counts subscription lists.
func startedHub(
    maxEntries: Int = 100_000, maxBytes: Int = 64 << 20, readOnly: Bool = false,
    deliveriesRefresh: Duration? = nil
) -> InspectorHub {
    let hub = InspectorHub(
        registry: StoreRegistry(),
        options: HubOptions(
            maxEntries: maxEntries, maxBytes: maxBytes, readOnly: readOnly, deliveriesRefresh: deliveriesRefresh))
    hub.start()
    return hub
}

/// A memory store registered with the hub's registry.
@discardableResult
func addStore(_ hub: InspectorHub, _ name: String, root: [String: StoreValue] = [:]) throws -> KeyValueStore {
    let store = KeyValueStore(id: StoreID(scope: .scenario(id: name), storage: .memory), root: root)
    try hub.registry.register(store)
    return store
}

/// Every read a cursor has now, until it returns nil.
func drain(_ cursor: HubCursor, maxEntries: Int = 10_000, maxBytes: Int = 1 << 30) -> [CursorRead] {
    var reads: [CursorRead] = []
    while let read = cursor.next(maxEntries: maxEntries, maxBytes: maxBytes) { reads.append(read) }
    return reads
}

/// The entries of reads that are all `.entries`.
func entries(_ reads: [CursorRead]) -> [HubLogEntry] {
    reads.flatMap { read -> [HubLogEntry] in
        guard case .entries(let entries) = read else {
            Issue.record("expected entries, got \(read)")
            return []
        }
        return entries
    }
}

/// Client-side state: a snapshot's stores, then entries applied in order, as a client replays them.
struct ReplayedState {
    var seq: Int
    var stores: [StoreID: StoreValue]

    init(_ snapshot: HubSnapshot) {
        seq = snapshot.seq
        stores = Dictionary(uniqueKeysWithValues: snapshot.stores.map { ($0.id, $0.root) })
    }

    mutating func apply(_ entry: HubLogEntry) throws {
        #expect(entry.seq == seq + 1, "entries must follow each other without gaps or repeats")
        seq = entry.seq
        switch entry.event {
        case .change(let change): try stores[entry.storeID]!.apply(change: change)
        case .registered(_, let root): stores[entry.storeID] = root
        case .reset: stores[entry.storeID] = .emptyObject
        case .removed: stores[entry.storeID] = nil
        }
    }
}

/// Runs `body(i)` for i in 0..<count on concurrent threads and waits for all.
func concurrently(_ count: Int, _ body: @Sendable (Int) -> Void) {
    DispatchQueue.concurrentPerform(iterations: count, execute: body)
}

/// A thread-safe list, for values collected from several threads or callbacks.
final class Collected<Element: Sendable>: Sendable {
    private let items = Mutex<[Element]>([])
    func append(_ item: Element) { items.withLock { $0.append(item) } }
    var all: [Element] { items.withLock { $0 } }
}

/// The JSON object a line or a message parses to.
func parsed(_ bytes: [UInt8]) throws -> [String: StoreValue] {
    let value = try StoreValue(jsonBytes: bytes)
    return try #require(value.objectValue, "expected a JSON object")
}

/// Whether `text` is RFC 3339 UTC with exactly six fractional digits: `2026-11-21T10:00:00.125000Z`.
func isLogTime(_ text: String) -> Bool {
    let pattern = #"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{6}Z$"#
    return text.range(of: pattern, options: .regularExpression) != nil
}
