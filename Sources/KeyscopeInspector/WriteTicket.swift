import KeyscopeCore
import Synchronization

/// How a client's write learns the seq of the change it made, without guessing from "the latest seq".
///
/// The registry calls observers synchronously on the writing thread, inside the store call. So the hub binds a
/// ticket (a task-local value, which outside any task is thread-local) around the store call, and its observer offers
/// each entry it appends to the ticket bound on that thread. The ticket keeps the first change entry of its hub and
/// store. Within one store call, the call's own change is emitted before anything else can emit on that thread:
/// other writes on the same thread come only from subscribers the store delivers to after releasing its lock, which
/// is after its own change was emitted. The caller still checks that the kept entry is its change (equal to the
/// `StoreChange` the store returned, or, for a revert, one that turns the state before into the state after),
/// so a change made by a subscriber is never taken for the request's own.
final class WriteTicket: Sendable {
    @TaskLocal static var current: WriteTicket?

    /// How many tickets are bound right now, on any thread. The observer reads ``current`` (a task-local lookup on
    /// every append) only while this is not 0: a ticket is bound on the thread whose store call the observer runs in,
    /// so that thread sees its own count.
    private static let boundCount = Atomic<Int>(0)

    /// The ticket bound on this thread, looked up only when some ticket is bound anywhere.
    static var onThisThread: WriteTicket? {
        boundCount.load(ordering: .relaxed) == 0 ? nil : current
    }

    private let hub: ObjectIdentifier
    private let storeID: StoreID
    private let kept = Mutex<HubLogEntry?>(nil)

    init(hub: InspectorHub, storeID: StoreID) {
        self.hub = ObjectIdentifier(hub)
        self.storeID = storeID
    }

    /// Called by the observer after appending `entry`; keeps the first change of this ticket's hub and store.
    func offer(_ entry: HubLogEntry, from hub: InspectorHub) {
        guard ObjectIdentifier(hub) == self.hub, entry.storeID == storeID, entry.change != nil else { return }
        kept.withLock { kept in
            if kept == nil { kept = entry }
        }
    }

    /// The first change entry offered, if any.
    var entry: HubLogEntry? { kept.withLock { $0 } }

    /// Runs `body` with this ticket bound on the current thread (and task).
    func bound<R>(_ body: () throws -> R) rethrows -> R {
        Self.boundCount.add(1, ordering: .relaxed)
        defer { Self.boundCount.subtract(1, ordering: .relaxed) }
        return try WriteTicket.$current.withValue(self, operation: body)
    }
}
