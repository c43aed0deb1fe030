import Foundation
import KeyscopeCore
import Synchronization

/// The shop's shared settings: feature flags and a banner every instance of the shop sees, in the backend store
/// `app/backend:shop`. With `serve --demo --redis URL` it lives in Redis, so two demos side by side share it live;
/// without, it stays in the process. Now and then (every few seconds) one instance flips a flag or changes the
/// banner, as an operator would.
final class DemoSharedSettings: Sendable {
    static let namespace = "shop"
    static let dataVersion: SemanticVersion = "1.0.0"
    static let flags = ["newCheckout", "giftCards", "expressShipping", "reviews"]
    static let banners = ["Free shipping over $50", "Winter sale: 20% off", "New: gift cards", ""]

    let store: KeyValueStore
    private let factory: DefaultStoreFactory
    private let stopped = Mutex(false)
    private let wake = DispatchSemaphore(value: 0)

    init(backend: any BackendAdapter, registry: StoreRegistry = .shared) {
        factory = DefaultStoreFactory(version: Self.dataVersion, registry: registry, backend: backend)
        store = factory.store(storage: .backend(namespace: Self.namespace))
        // Defaults only for what is missing: another instance may have set the rest already.
        do {
            try store.transaction { tx in
                if !tx.exists("flags") {
                    try tx.set("flags", .object(Dictionary(uniqueKeysWithValues: Self.flags.map { ($0, false) })))
                }
                if !tx.exists("banner") { try tx.set("banner", .string(Self.banners[0])) }
            }
        } catch {
            FileHandle.standardError.write(Data("keyscope: could not set up the shared settings: \(error)\n".utf8))
        }
    }

    /// Changes a flag or the banner every `interval` (randomly 0.5x to 1.5x of it) on a thread of its own.
    func start(interval: Duration = .seconds(5), seed: UInt64) {
        let thread = Thread { [self] in
            var random = SeededGenerator(seed: seed)
            while true {
                let wait = interval.timeInterval * Double.random(in: 0.5...1.5, using: &random)
                _ = wake.wait(timeout: .now() + wait)
                if stopped.withLock({ $0 }) { return }
                change(using: &random)
            }
        }
        thread.name = "keyscope-demo-shared"
        thread.start()
    }

    func stop() {
        stopped.withLock { $0 = true }
        wake.signal()
        store.flush()
    }

    private func change(using random: inout SeededGenerator) {
        if Bool.random(using: &random) {
            let flag = Self.flags.randomElement(using: &random)!
            let path = StoreKeyPath(segments: [.key("flags"), .key(flag)])
            store.set(path, .bool(!(store.get(path)?.boolValue ?? false)))
        } else {
            store.set("banner", .string(Self.banners.randomElement(using: &random)!))
        }
    }
}

extension Duration {
    fileprivate var timeInterval: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
