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
    /// The seq the client resumes after (`?resume=SEQ`, docs/protocol.md "Resuming"); `nil` for a fresh start.
    let resume: Int?
    private let state = Mutex(State())

    private struct State {
        var cursor: FleetCursor?
        var queue: [[UInt8]] = []
    }

    /// - Parameters:
    ///   - readOnly: the dashboard refuses requests itself (`read_only`), `resync` excepted.
    ///   - resume: the seq the client resumes after, as on an instance's own inspector.
    public init(view: FleetView, instance: String, readOnly: Bool, resume: Int? = nil) {
        self.view = view
        self.instance = instance
        self.readOnly = readOnly
        self.resume = resume
    }

    /// `"instance": ID`, `readOnly`, `resumed`, and `server` naming the instance's own process (its name, version
    /// and pid): a client that resumes sees another pid when the instance restarted, and starts over, as
    /// docs/protocol.md says.
    public var helloMembers: [String: StoreValue] {
        let presence = view.instance(instance)?.presence
        var members: [String: StoreValue] = [
            "instance": .string(instance), "readOnly": .bool(readOnly || (presence?.readOnly ?? false)),
            "resumed": .bool(resume != nil),
        ]
        if let presence {
            members["server"] = .object([
                "name": .string(presence.name), "version": .string(presence.version),
                "pid": .integer(Int64(presence.pid)),
            ])
        }
        return members
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
                if let resume {
                    // Resumed: the subscription list, then the changes after `resume` (a gap and a snapshot when the
                    // dashboard no longer holds them, a snapshot alone when the instance never reached it).
                    guard let (snapshot, resumed) = view.resumeCursor(instance: instance, after: resume) else {
                        return nil
                    }
                    var cursor = resumed
                    let list = view.subscriptionsUpdate(&cursor)
                    state.cursor = cursor
                    if let snapshot { state.queue.append(snapshot) }
                    return list ?? (state.queue.isEmpty ? nil : state.queue.removeFirst())
                }
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
        // As sent: the instance reads it as its own inspector would (an `instance` member in it is not read there).
        view.send(request, to: instance) { reply in answer([reply]) }
    }
}
