import Foundation
import KeyscopeCodec
import KeyscopeCore
import KeyscopeRecording
import KeyscopeTesting
import Synchronization

/// A seeded random session on real stores whose registry activity is recorded as a `.kslog`: single writes,
/// transactions, scenario stores registered and ended, major version resets, hand-made stores coming and going.
/// The stores are the truth a replay must reproduce: after every step the session notes the `seq` reached and the
/// state of every registered store.
struct PropertySession {
    /// The recording, and the true state at the seqs the session passed (seq 0 is the header's).
    struct Outcome {
        var bytes: [UInt8]
        var events: [LogEvent]
        var checkpoints: [Int64: StoreValue]
    }

    private var random: SplitMix64
    private let registry = StoreRegistry()
    private let factory: DefaultStoreFactory
    private var major = 1
    private var scenarioCount = 0
    private let handMade = [StoreID("app/file:/var/lib/svc/state.json")!, StoreID("app/backend:orders")!]

    init(seed: UInt64) {
        random = SplitMix64(seed: seed)
        factory = DefaultStoreFactory(version: SemanticVersion(1, 0, 0), registry: registry)
    }

    mutating func run(steps: Int) throws -> Outcome {
        let app = factory.store(scope: .app, storage: .memory)
        try app.replaceAll(with: ["cart": ["total": 90, "items": ["tea", ["sku": "MUG"]]], "flags": [:]])
        _ = factory.store(scope: .scenario(id: "s0"), storage: .memory)
        try registry.register(KeyValueStore(id: handMade[0], version: "3.1.0", root: ["saved": true]))
        let header = RecordingHeader(
            createdAt: LogTime(rfc3339: "2026-11-21T10:00:00.000000Z")!,
            stores: registry.stores.map { .init(id: $0.id, version: $0.version, root: $0.snapshot()) })
        let heard = Mutex<[LogEvent]>([])
        let token = registry.observe { activity in
            if let event = LogEvent(activity) { heard.withLock { $0.append(event) } }
        }
        defer { token.cancel() }
        var checkpoints: [Int64: StoreValue] = [0: state()]
        for _ in 0..<steps {
            step()
            checkpoints[Int64(heard.withLock { $0.count })] = state()
        }
        let events = heard.withLock { $0 }
        var bytes = try JanssonCodec.encode(header) + [UInt8(ascii: "\n")]
        var micros = header.createdAt.microsecondsSince1970
        for (index, event) in events.enumerated() {
            micros += Int64(random.next(in: 0...2_000))
            let time = LogTime(microsecondsSince1970: micros)!
            bytes += try JanssonCodec.encode(LogEntry(seq: Int64(index + 1), time: time, event: event))
            bytes.append(UInt8(ascii: "\n"))
        }
        return Outcome(bytes: bytes, events: events, checkpoints: checkpoints)
    }

    /// Every registered store: id → root.
    private func state() -> StoreValue {
        .object(Dictionary(uniqueKeysWithValues: registry.stores.map { ($0.id.description, $0.snapshot()) }))
    }

    private mutating func step() {
        let stores = registry.stores
        let roll = Int.random(in: 0..<100, using: &random)
        switch roll {
        case 0..<55:
            guard let store = stores.randomElement(using: &random) else { return }
            _ = try? store.apply(randomOperation(on: store.snapshot()))
        case 55..<75:
            guard let store = stores.randomElement(using: &random) else { return }
            let count = random.next(in: 2...5)
            _ = try? store.transaction { tx in
                for _ in 0..<count { try? tx.apply(randomOperation(on: tx.get(.root) ?? [:])) }
            }
        case 75..<82:
            // Several operations as one change without a transaction id, all or nothing.
            guard let store = stores.randomElement(using: &random) else { return }
            let root = store.snapshot()
            let operations = (0..<random.next(in: 2...3)).map { _ in randomOperation(on: root) }
            _ = try? store.apply(operations, transactionID: nil)
        case 82..<88:
            let id = random.next(in: 0...scenarioCount + 1)
            scenarioCount = max(scenarioCount, id)
            _ = factory.store(scope: .scenario(id: "s\(id)"), storage: .memory)
        case 88..<93:
            let scenarios = stores.compactMap { store -> String? in
                if case .scenario(let id) = store.scope { return id }
                return nil
            }
            if let ended = scenarios.randomElement(using: &random) { factory.endScenario(ended) }
        case 93..<96:
            major += 1
            factory.updateVersion(SemanticVersion(major, random.next(in: 0...3), 0))
        default:
            let id = handMade.randomElement(using: &random)!
            if registry.store(id) != nil {
                registry.unregister(id)
            } else {
                let root = randomValue(depth: 1).objectValue ?? ["v": 1]
                try? registry.register(KeyValueStore(id: id, version: "1.2.3", root: root))
            }
        }
    }

    // MARK: Random operations

    private static let keys = ["a", "b", "cart", "items", "total", "$x", "dot.key", "n0", "ü", "2024"]

    /// An operation near what `root` holds: on an existing path, one key below it, or an index at an array's end.
    private mutating func randomOperation(on root: StoreValue) -> StoreOperation {
        var arrays: [(StoreKeyPath, Int)] = []
        Self.collectArrays(root, at: .root, into: &arrays)
        if !arrays.isEmpty, Int.random(in: 0..<4, using: &random) == 0 {
            let (path, count) = arrays.randomElement(using: &random)!
            let index = random.next(in: 0...count)
            switch Int.random(in: 0..<3, using: &random) {
            case 0: return .insert(path.appending(index: index), randomValue(depth: 1))
            case 1 where index < count: return .remove(path.appending(index: index))
            default: return .set(path.appending(index: index), randomValue(depth: 1))
            }
        }
        var path = StoreKeyPath.root
        var node = root
        while Int.random(in: 0..<3, using: &random) > 0 {
            switch node {
            case .object(let members) where !members.isEmpty:
                let key = members.keys.sorted().randomElement(using: &random)!
                path = path.appending(key: key)
                node = members[key]!
            case .array(let elements) where !elements.isEmpty:
                let index = Int.random(in: 0..<elements.count, using: &random)
                path = path.appending(index: index)
                node = elements[index]
            default:
                break
            }
            if case .object = node { continue }
            if case .array = node { continue }
            break
        }
        let newKey = Self.keys.randomElement(using: &random)!
        switch (Int.random(in: 0..<6, using: &random), node) {
        case (0, .array(let elements)):
            return .insert(path.appending(index: random.next(in: 0...elements.count)), randomValue(depth: 2))
        case (1, .array(let elements)):
            return .set(path.appending(index: elements.count), randomValue(depth: 2))
        case (2, _) where !path.isRoot:
            return .remove(path)
        case (3, .object):
            return .merge(path, randomValue(depth: 1).objectValue ?? [newKey: 1])
        case (4, .object):
            // Creates intermediate objects: recorded as one set at the outermost new key.
            return .set(path.appending(key: newKey).appending(key: "deep").appending(key: "er"), randomValue(depth: 1))
        case (_, .object):
            return .set(path.appending(key: newKey), randomValue(depth: 2))
        default:
            return path.isRoot ? .remove(.root.appending(key: newKey)) : .set(path, randomValue(depth: 2))
        }
    }

    private static func collectArrays(
        _ value: StoreValue, at path: StoreKeyPath, into found: inout [(StoreKeyPath, Int)]
    ) {
        switch value {
        case .array(let elements):
            found.append((path, elements.count))
            for (index, element) in elements.enumerated() {
                collectArrays(element, at: path.appending(index: index), into: &found)
            }
        case .object(let members):
            for key in members.keys.sorted() {
                collectArrays(members[key]!, at: path.appending(key: key), into: &found)
            }
        default:
            break
        }
    }

    private mutating func randomValue(depth: Int) -> StoreValue {
        switch Int.random(in: 0..<(depth > 0 ? 11 : 7), using: &random) {
        case 0: return .integer(Int64(random.next(in: -1_000...1_000)))
        case 1: return .number(Double(random.next(in: -10_000...10_000)) / 8)
        case 2: return .string(["", "tea", "ü ☕", "a\"b", "line\nbreak"].randomElement(using: &random)!)
        case 3: return .bool(random.next(in: 0...1) == 1)
        case 4: return .null
        case 5: return .color(StoreColor(["#FF8800", "#00ff0080"].randomElement(using: &random)!)!)
        case 6: return .number([.nan, .infinity, -0.0].randomElement(using: &random)!)
        case 7, 8:
            return .array((0..<random.next(in: 0...3)).map { _ in randomValue(depth: depth - 1) })
        default:
            var members: [String: StoreValue] = [:]
            for _ in 0..<random.next(in: 0...3) {
                members[Self.keys.randomElement(using: &random)!] = randomValue(depth: depth - 1)
            }
            return .object(members)
        }
    }
}
