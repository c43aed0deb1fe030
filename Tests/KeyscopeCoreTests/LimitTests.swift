import Foundation
import KeyscopeCore
import Testing

/// StoreLimits: a path longer than 512 segments is `bad_path`, a value that would nest deeper than 512 levels is
/// `too_large`, both before anything changes, on every write route of the core; a value at the limit goes through
/// every tree walk on a 2 MiB stack.
@Suite struct LimitTests {
    static let limit = StoreLimits.maxDepth

    /// `count` key segments `k0.k1…`.
    static func keys(_ count: Int) -> StoreKeyPath {
        StoreKeyPath(segments: (0..<count).map { .key("k\($0)") })
    }

    /// A value of exactly `depth` levels that mixes objects, arrays and a tagged color at the bottom.
    static func nested(_ depth: Int) -> StoreValue {
        guard depth > 0 else { return .integer(7) }
        if depth == 1 { return .color(StoreColor("#FF8800")!) }
        var value = StoreValue.color(StoreColor("#FF8800")!)
        for level in 1..<depth {
            value = level % 2 == 0 ? .array([value, "x"]) : .object(["n": value, "s": .integer(Int64(level))])
        }
        return value
    }

    @Test func depthCountsLevelsAsJSONDoes() {
        #expect(StoreValue.integer(1).depth() == 0)
        #expect(StoreValue.number(.nan).depth() == 1)
        #expect(StoreValue.url(URL(string: "https://a.example")!).depth() == 1)
        #expect(StoreValue.emptyObject.depth() == 1)
        #expect((["a": [1, ["b": 2]]] as StoreValue).depth() == 3)
        for depth in [0, 1, 2, 3, 10, 511, 512, 513] {
            #expect(Self.nested(depth).depth() == depth)
            #expect(Self.nested(depth).jsonText().filter { $0 == "{" || $0 == "[" }.count >= depth)
        }
        #expect(Self.nested(600).depth(limit: 512) == 513)
    }

    @Test func aPathLongerThanTheLimitIsBadPathAndChangesNothing() throws {
        let store = KeyValueStore(id: StoreID(scope: .app, storage: .memory), root: ["keep": 1])
        let tooLong = Self.keys(StoreLimits.maxPathSegments + 1)
        for operation: StoreOperation in [
            .set(tooLong, 1), .merge(tooLong, ["a": 1]), .remove(tooLong),
            .insert(StoreKeyPath(segments: tooLong.segments.dropLast() + [.index(0)]), 1),
        ] {
            let error = try #require(throws: StoreError.self) { try store.apply(operation) }
            #expect(error.code == .badPath)
            #expect(error.message.contains("has 513 segments; a store path has at most 512"))
            #expect(error.message.count < 200)
        }
        let parsed = try StoreKeyPath(parsing: Array(repeating: "a", count: 100_000).joined(separator: "."))
        #expect(throws: StoreError.self) { try store.apply(.set(parsed, 1)) }
        #expect(store.snapshot() == ["keep": 1])
        #expect(store.version == .initial)
    }

    @Test func aPathAtTheLimitWritesAndReadsBack() throws {
        let store = KeyValueStore(id: StoreID(scope: .app, storage: .memory))
        let path = Self.keys(StoreLimits.maxPathSegments)
        try store.apply(.set(path, "deep"))
        #expect(store.get(path) == "deep")
        #expect(store.snapshot().depth() == Self.limit)
        let text = store.snapshot().jsonText()
        #expect(try StoreValue(jsonText: text) == store.snapshot())
    }

    @Test func aValueThatWouldNestTooDeepIsTooLargeOnEveryOperation() throws {
        let store = KeyValueStore(id: StoreID(scope: .app, storage: .memory), root: ["list": [], "obj": [:]])
        let before = store.snapshot()
        let cases: [StoreOperation] = [
            .set(.root, Self.nested(Self.limit + 1)),
            .set("a", Self.nested(Self.limit)),
            .set(Self.keys(10), Self.nested(Self.limit - 9)),
            .set(Self.keys(StoreLimits.maxPathSegments), .color(StoreColor("#000000")!)),
            .insert("list[0]", Self.nested(Self.limit - 1)),
            .merge("obj", ["m": Self.nested(Self.limit - 1)]),
            .merge(.root, ["m": Self.nested(Self.limit)]),
        ]
        for operation in cases {
            let error = try #require(throws: StoreError.self) { try store.apply(operation) }
            #expect(error.code == .tooLarge, "\(operation.keyPath)")
            #expect(error.message.contains("a store nests at most 512 levels"))
            #expect(error.description.count < 400)
        }
        #expect(throws: StoreError.self) {
            try store.transaction { tx in
                try tx.set("fine", 1)
                try tx.set("deep", Self.nested(Self.limit))
            }
        }
        let deepPatch = StorePatch(op: .set, keyPath: "p", newValue: Self.nested(Self.limit))
        var root = before
        #expect(throws: StoreError.self) { try root.apply(patch: deepPatch) }
        #expect(root == before)
        #expect(store.snapshot() == before)
        #expect(store.version == .initial)
    }

    @Test func valuesAtTheLimitAreAccepted() throws {
        let store = KeyValueStore(id: StoreID(scope: .app, storage: .memory), root: ["list": [], "obj": [:]])
        try store.apply(.set("a", Self.nested(Self.limit - 1)))
        try store.apply(.set(Self.keys(10), Self.nested(Self.limit - 10)))
        try store.apply(.insert("list[0]", Self.nested(Self.limit - 2)))
        try store.apply(.merge("obj", ["m": Self.nested(Self.limit - 3)]))
        #expect(store.snapshot().depth() == Self.limit)
        try store.apply(.set(.root, Self.nested(Self.limit).objectValue.map(StoreValue.object)!))
        #expect(store.snapshot().depth() == Self.limit)
    }

    /// Every secondary thread on Linux (Dispatch workers, tasks, Foundation threads such as the inspector's service
    /// thread) has the process's default 8 MiB stack; a quarter of that is ample for a value at the limit even in
    /// a debug build, whose frames are the largest (about 2 KiB per level for the JSON reader, measured).
    @Test func everyWalkOverAValueAtTheLimitFitsA2MiBStack() throws {
        let stackBytes = 2 << 20
        let report = try SmallStack.run(bytes: stackBytes) {
            var notes: [String] = []
            let root = Self.nested(Self.limit)
            let pathed = Self.keys(StoreLimits.maxPathSegments - 2)  // and 2 levels below: 512
            let store = KeyValueStore(id: StoreID(scope: .app, storage: .memory))
            do {
                try store.apply(.set(.root, root))
                let compact = root.jsonBytes(sortedKeys: true)
                let pretty = root.jsonData(pretty: true)
                if try StoreValue(jsonBytes: compact) != root { notes.append("compact") }
                if try StoreValue(jsonData: pretty) != root { notes.append("pretty") }
                if try root.hashValue != StoreValue(jsonText: root.jsonText()).hashValue { notes.append("hash") }
                let change = try #require(try store.apply([.set(.root, [:])], transactionID: nil))
                let inverse = change.inverted()
                var replayed = StoreValue.emptyObject
                try replayed.apply(change: inverse)
                if replayed != root { notes.append("inverse") }
                // Codable through the core's own encoder and decoder (Foundation's JSON coders stop at 512 levels
                // of their own, counted without the tags).
                let encoded = try StoreValueEncoder().encode(root)
                if try StoreValueDecoder().decode(StoreValue.self, from: encoded) != root { notes.append("codable") }
                try store.apply(.set(pathed, ["leaf": [1]]))
                if store.snapshot().depth() != Self.limit { notes.append("pathed depth") }
                if store.get(pathed) != ["leaf": [1]] { notes.append("pathed get") }
                try store.apply(.remove(StoreKeyPath(segments: [pathed.segments[0]])))
            } catch {
                notes.append(String(String(describing: error).prefix(300)))
            }
            return notes
        }
        #expect(report.stackBytes == stackBytes)
        #expect(report.result == [])
    }
}

/// Runs a body on a thread made with a given stack size, and waits for it.
enum SmallStack {
    struct Report<R> {
        /// The stack size the thread was made with, as the thread reports it.
        var stackBytes: Int
        var result: R
    }

    static func run<R: Sendable>(bytes: Int, _ body: @escaping @Sendable () -> R) throws -> Report<R> {
        let result = ResultBox<R>()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            result.value = body()
            done.signal()
        }
        thread.stackSize = bytes
        let size = thread.stackSize
        thread.start()
        done.wait()
        return Report(stackBytes: size, result: try #require(result.value))
    }
}

/// The body's result: written by the thread before it signals, read after the wait.
final class ResultBox<T>: @unchecked Sendable {
    var value: T?
}
