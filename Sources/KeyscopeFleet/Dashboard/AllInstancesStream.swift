public import KeyscopeCore
public import KeyscopeInspector
public import KeyscopeProtocol
import KeyscopeServer
import Synchronization

/// Every instance at once for a client of the fleet dashboard (`/ws?instance=*`, docs/fleet.md): `hello`, the
/// `fleet` list (again whenever an instance joins, leaves or changes state, and every few seconds for the rates),
/// then `changes` whose entries each carry `"instance": ID`, each instance's in its own seq order, a `gap` naming
/// the instance when the client fell behind one. Requests name their target with `"instance"`: an id, or `"*"` for
/// every live instance (one reply holding each one's answer).
public final class AllInstancesStream: FeatureStream {
    let view: FleetView
    let readOnly: Bool
    private let state = Mutex(State())

    private struct State {
        var listSent = -1
        /// The view's ``FleetView/membersVersion`` when the cursors were last matched to the instances.
        var listSeen = -1
        var listDue = ContinuousClock.now
        var cursors: [String: FleetCursor] = [:]
        /// Where the next frame starts gathering, so that a busy instance does not starve the others.
        var turn = 0
        var queue: [[UInt8]] = []
    }

    /// How often the list is sent again while nothing but rates and last-seen times changed.
    static let listRefresh = Duration.seconds(2)

    public init(view: FleetView, readOnly: Bool) {
        self.view = view
        self.readOnly = readOnly
    }

    public var helloMembers: [String: StoreValue] {
        ["instance": "*", "fleet": .string(view.options.fleet), "readOnly": .bool(readOnly)]
    }

    public var hasNews: Bool {
        state.withLock { state in
            if !state.queue.isEmpty || state.listSent != view.listVersion || ContinuousClock.now >= state.listDue {
                return true
            }
            return state.cursors.values.contains { view.hasNews($0, subscriptions: false) }
                || state.listSeen != view.membersVersion
        }
    }

    public func next(maxEntries: Int, maxBytes: Int) -> [UInt8]? {
        state.withLock { state -> [UInt8]? in
            if !state.queue.isEmpty { return state.queue.removeFirst() }
            let version = view.listVersion
            if state.listSent != version || ContinuousClock.now >= state.listDue {
                state.listSent = version
                state.listDue = ContinuousClock.now + Self.listRefresh
                return FleetMessages.fleet(view)
            }
            followNewInstances(&state)
            return gather(&state, maxEntries: maxEntries, maxBytes: maxBytes)
        }
    }

    /// Instances the client does not follow yet are followed from their current state on.
    private func followNewInstances(_ state: inout State) {
        let version = view.membersVersion
        guard state.listSeen != version else { return }
        state.listSeen = version
        for instance in view.instances() where state.cursors[instance.id] == nil {
            if let (_, cursor) = view.makeCursor(instance: instance.id) { state.cursors[instance.id] = cursor }
        }
        state.cursors = state.cursors.filter { view.instance($0.key) != nil }
    }

    /// One frame of entries from every instance with news, taking turns.
    private func gather(_ state: inout State, maxEntries: Int, maxBytes: Int) -> [UInt8]? {
        let ids = state.cursors.keys.sorted()
        guard !ids.isEmpty else { return nil }
        var lines: [(instance: String?, line: [UInt8])] = []
        var bytes = 0
        state.turn = (state.turn + 1) % ids.count
        for offset in 0..<ids.count {
            let id = ids[(state.turn + offset) % ids.count]
            guard var cursor = state.cursors[id], lines.count < maxEntries, bytes < maxBytes else { break }
            defer { state.cursors[id] = cursor }
            switch view.read(&cursor, maxEntries: maxEntries - lines.count, maxBytes: maxBytes - bytes) {
            case .entries(let more)?:
                for line in more {
                    lines.append((id, line))
                    bytes += line.count + 16
                }
            case .gap(let from, let to, _)?:
                state.queue.append(FleetMessages.gap(from: from, to: to, instance: id))
            case .snapshot?:
                // A restarted instance: the list says so (its new start time); its entries follow from here.
                state.listSent = -1
            case nil:
                continue
            }
        }
        if lines.isEmpty { return state.queue.isEmpty ? nil : state.queue.removeFirst() }
        return FleetMessages.changes(lines)
    }

    public func handle(_ request: [UInt8], answer: @escaping @Sendable ([[UInt8]]) -> Void) {
        guard let members = FleetMessages.members(request) else {
            answer([ServerMessages.reply(id: .null, error: FleetMessages.notAnObject)])
            return
        }
        let id = members["id"] ?? .null
        if members["type"] == "resync" {
            state.withLock { $0.listSent = -1 }
            answer([ServerMessages.reply(id: id, result: InspectorProtocol.seqResult(nil))])
            return
        }
        guard case .string(let target)? = members["instance"] else {
            answer([
                ServerMessages.reply(
                    id: id,
                    error: .badRequest(
                        "name the instance the request is for: \"instance\": \"ID\" (see the fleet list), or \"*\" for every live one"
                    ))
            ])
            return
        }
        if readOnly {
            answer([ServerMessages.reply(id: id, error: FleetDashboard.readOnlyRefusal)])
            return
        }
        // As sent: the instance reads it as its own inspector would (the `instance` member is not read there).
        if target == "*" {
            view.broadcast(request) { reply in answer([reply]) }
        } else {
            view.send(request, to: target) { reply in answer([reply]) }
        }
    }
}
