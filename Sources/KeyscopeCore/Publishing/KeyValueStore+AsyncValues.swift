extension Store {
    /// The values at `path` as an `AsyncStream`: the current value first, then every real change. A slow consumer
    /// gets the latest value, not a backlog (the same conflation as the publisher).
    ///
    /// ```swift
    /// for await total in store.values(for: "cart.total") { print(total ?? "none") }
    /// ```
    public func values(for path: StoreKeyPath, label: String? = nil) -> AsyncStream<StoreValue?> {
        AsyncStream(bufferingPolicy: .bufferingNewest(1)) { continuation in
            let cancellable = publisher(for: path, label: label).sink { continuation.yield($0) }
            let box = CancellableBox(cancellable)
            continuation.onTermination = { _ in box.cancel() }
        }
    }

    /// The present values at `paths` as an `AsyncStream`, emitted whenever any of them changes.
    public func values(for paths: Set<StoreKeyPath>, label: String? = nil) -> AsyncStream<[StoreKeyPath: StoreValue]> {
        AsyncStream(bufferingPolicy: .bufferingNewest(1)) { continuation in
            let cancellable = publisher(for: paths, label: label).sink { continuation.yield($0) }
            let box = CancellableBox(cancellable)
            continuation.onTermination = { _ in box.cancel() }
        }
    }
}

/// `AnyCancellable` is not `Sendable`; the termination handler only ever calls `cancel()`, which is thread-safe.
private final class CancellableBox: @unchecked Sendable {
    private let cancellable: AnyCancellable
    init(_ cancellable: AnyCancellable) { self.cancellable = cancellable }
    func cancel() { cancellable.cancel() }
}
