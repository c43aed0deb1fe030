public import KeyscopeCore
public import KeyscopeInspector
public import KeyscopeProtocol
import KeyscopeServer
import Synchronization

/// One instance's protocol for a client of the fleet dashboard (`/ws?instance=ID`, docs/fleet.md): `hello` with
/// `"instance": ID`, the instance's snapshot, its `changes` in its own seqs (a `gap` and a fresh snapshot when the
/// client falls behind what the dashboard holds), its subscription list; requests carried to the instance and
/// answered there (`resync` answered here, from the dashboard's copy).
public final class InstanceStream: FeatureStream {
    let view: FleetView
    let instance: String
    let readOnly: Bool
    private let state = Mutex(State())

    private struct State {
        var cursor: FleetCursor?
        var queue: [[UInt8]] = []
    }

    /// - Parameter readOnly: the dashboard refuses requests itself (`read_only`), `resync` excepted.
    public init(view: FleetView, instance: String, readOnly: Bool) {
        self.view = view
        self.instance = instance
        self.readOnly = readOnly
    }

    public var helloMembers: [String: StoreValue] {
        let instanceReadOnly = view.instance(instance)?.presence.readOnly ?? false
        return ["instance": .string(instance), "readOnly": .bool(readOnly || instanceReadOnly)]
    }

    public var hasNews: Bool {
        state.withLock { state in
            guard state.queue.isEmpty else { return true }
            guard let cursor = state.cursor else { return view.isMirrored(instance) }
            return view.hasNews(cursor)
        }
    }

    public func next(maxEntries: Int, maxBytes: Int) -> [UInt8]? {
        state.withLock { state -> [UInt8]? in
            if !state.queue.isEmpty { return state.queue.removeFirst() }
            guard var cursor = state.cursor else {
                // The first message: the state as the dashboard holds it now (once it has read it).
                guard let (snapshot, cursor) = view.makeCursor(instance: instance) else { return nil }
                state.cursor = cursor
                return snapshot
            }
            defer { state.cursor = cursor }
            if let list = view.subscriptionsUpdate(&cursor) { return list }
            switch view.read(&cursor, maxEntries: maxEntries, maxBytes: maxBytes) {
            case .entries(let lines)?:
                return FleetMessages.changes(lines.map { (nil, $0) })
            case .gap(let from, let to, let snapshot)?:
                state.queue.append(snapshot)
                return FleetMessages.gap(from: from, to: to, instance: nil)
            case .snapshot(let snapshot)?:
                return snapshot
            case nil:
                return nil
            }
        }
    }

    public func handle(_ request: [UInt8], answer: @escaping @Sendable ([[UInt8]]) -> Void) {
        guard let members = FleetMessages.members(request) else {
            answer([ServerMessages.reply(id: .null, error: FleetMessages.notAnObject)])
            return
        }
        let id = members["id"] ?? .null
        if members["type"] == "resync" {
            guard let (snapshot, cursor) = view.makeCursor(instance: instance) else {
                answer([
                    ServerMessages.reply(
                        id: id,
                        error: HubError(
                            code: .unavailable, message: "the dashboard has not read \(instance)'s state yet"))
                ])
                return
            }
            state.withLock { $0.cursor = cursor }
            answer([snapshot, ServerMessages.reply(id: id, result: InspectorProtocol.seqResult(cursor.next - 1))])
            return
        }
        if readOnly {
            answer([ServerMessages.reply(id: id, error: FleetDashboard.readOnlyRefusal)])
            return
        }
        var forwarded = members
        forwarded["instance"] = nil  // the stream names it
        view.send(StoreValue.object(forwarded).jsonBytes(sortedKeys: true), to: instance) { reply in answer([reply]) }
    }
}
