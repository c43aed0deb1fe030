import Synchronization

/// A remote home for store data, pushed and pulled whole per namespace (a key-value service, an HTTP API…).
///
/// `pull` runs once, on the thread that first asks the factory for the store; `push` runs on the store's
/// persistence queue, never on a writer's thread, so a blocking client does not slow writes.
/// ```swift
/// let factory = DefaultStoreFactory(backend: InMemoryBackend())
/// let shared = factory.store(scope: .app, storage: .backend(namespace: "team-settings"))
/// ```
public protocol BackendAdapter: Sendable {
    /// The data last pushed to `namespace`, or `nil` when there is none.
    func pull(namespace: String) throws -> PersistedState?
    /// Replaces the data of `namespace`.
    func push(_ state: PersistedState, namespace: String) throws
}

/// The in-process reference adapter: namespaces in a dictionary, shared by every factory given the same instance.
/// It stores the JSON document form, so it exercises the same encoding a networked adapter would.
public final class InMemoryBackend: BackendAdapter {
    private let documents = Mutex<[String: [UInt8]]>([:])

    public init() {}

    public func pull(namespace: String) throws -> PersistedState? {
        guard let bytes = documents.withLock({ $0[namespace] }) else { return nil }
        return try PersistedState(
            document: StoreValue(jsonBytes: bytes, maxDepth: StoreLimits.maxDepth + 1),
            source: "backend namespace \(namespace)")
    }

    public func push(_ state: PersistedState, namespace: String) throws {
        let bytes = state.document.jsonBytes(sortedKeys: true)
        documents.withLock { $0[namespace] = bytes }
    }

    /// The namespaces that hold data.
    public var namespaces: [String] { documents.withLock { $0.keys.sorted() } }
}

/// Persistence through a ``BackendAdapter``.
struct BackendPersistence: PersistenceDriver {
    let adapter: any BackendAdapter
    let namespace: String

    func load() throws(StoreError) -> PersistedState? {
        do { return try adapter.pull(namespace: namespace) } catch { throw Self.wrap(error, "pull", namespace) }
    }

    func save(_ state: PersistedState) throws(StoreError) {
        do { try adapter.push(state, namespace: namespace) } catch { throw Self.wrap(error, "push", namespace) }
    }

    private static func wrap(_ error: any Error, _ action: String, _ namespace: String) -> StoreError {
        if let error = error as? StoreError { return error }
        return StoreError(code: .persistence, message: "backend \(action) of \(namespace) failed: \(error)")
    }
}
