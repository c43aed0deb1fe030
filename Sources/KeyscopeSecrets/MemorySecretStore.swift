public import Foundation
import Synchronization

/// A secret store in memory, for tests of apps and of Keyscope: it checks names and sorts results like the other
/// backends, stamps each write with the current time, and can be told to fail, so that a test can check what an
/// app does when its secret store refuses or is unreachable.
///
/// ```swift
/// let secrets = MemorySecretStore(appID: "com.shop")
/// try secrets.write(Data("s3cret".utf8), service: "com.shop.api", account: "token")
/// secrets.failWith(SecretStoreError(code: .unavailable, message: "keyring locked"), on: .writes)
/// #expect(throws: SecretStoreError.self) { try secrets.write(Data(), service: "com.shop.api", account: "token") }
/// ```
///
/// Every instance has its own items; share one instance to share them.
public final class MemorySecretStore: SecretStore {
    /// Which calls a failure set by ``failWith(_:on:)`` applies to.
    public struct Operations: OptionSet, Sendable, Hashable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// `services()`, `items(service:)` and `read(service:account:)`.
        public static let reads = Operations(rawValue: 1 << 0)
        /// `write(_:service:account:)` and `delete(service:account:)`.
        public static let writes = Operations(rawValue: 1 << 1)
        public static let all: Operations = [.reads, .writes]
    }

    private struct State {
        /// service → account → item.
        var services: [String: [String: SecretItem]] = [:]
        var failure: SecretStoreError?
        var failing: Operations = []
    }

    public let backendName = "memory"
    public let appID: String
    private let state = Mutex(State())

    /// A store holding `items` (their `modified` kept as given, or now when `nil`).
    ///
    /// Neither the app ID nor the names in `items` are checked here, so that a test can start from any state.
    public init(appID: String, items: [SecretItem] = []) {
        self.appID = appID
        let now = Date()
        state.withLock { state in
            for var item in items {
                item.modified = item.modified ?? now
                state.services[item.service, default: [:]][item.account] = item
            }
        }
    }

    /// Makes every later call in `operations` throw `error` (`nil` clears it: calls succeed again).
    public func failWith(_ error: SecretStoreError?, on operations: Operations = .all) {
        state.withLock { state in
            state.failure = error
            state.failing = error == nil ? [] : operations
        }
    }

    public func services() throws(SecretStoreError) -> [String] {
        try state.withLock { state throws(SecretStoreError) in
            try Self.failIfAsked(state, .reads)
            return state.services.filter { !$0.value.isEmpty }.keys.sorted()
        }
    }

    public func items(service: String) throws(SecretStoreError) -> [SecretItem] {
        try SecretName.check(service, "service")
        return try state.withLock { state throws(SecretStoreError) in
            try Self.failIfAsked(state, .reads)
            return (state.services[service] ?? [:]).values.sorted { $0.account < $1.account }
        }
    }

    public func read(service: String, account: String) throws(SecretStoreError) -> Data? {
        try SecretName.check(service, "service")
        try SecretName.check(account, "account")
        return try state.withLock { state throws(SecretStoreError) in
            try Self.failIfAsked(state, .reads)
            return state.services[service]?[account]?.value
        }
    }

    public func write(_ value: Data, service: String, account: String) throws(SecretStoreError) {
        try SecretName.check(service, "service")
        try SecretName.check(account, "account")
        try state.withLock { state throws(SecretStoreError) in
            try Self.failIfAsked(state, .writes)
            let item = SecretItem(service: service, account: account, value: value, modified: Date())
            state.services[service, default: [:]][account] = item
        }
    }

    @discardableResult
    public func delete(service: String, account: String) throws(SecretStoreError) -> Bool {
        try SecretName.check(service, "service")
        try SecretName.check(account, "account")
        return try state.withLock { state throws(SecretStoreError) in
            try Self.failIfAsked(state, .writes)
            guard state.services[service]?.removeValue(forKey: account) != nil else { return false }
            if state.services[service]?.isEmpty == true { state.services[service] = nil }
            return true
        }
    }

    private static func failIfAsked(_ state: State, _ operation: Operations) throws(SecretStoreError) {
        if let failure = state.failure, state.failing.contains(operation) { throw failure }
    }
}
