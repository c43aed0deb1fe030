public import Foundation

/// Who a store belongs to: the whole app, or one scenario (a test run, a checkout flow…) that can be ended.
public enum Scope: Sendable, Hashable, CustomStringConvertible {
    case app
    case scenario(id: String)

    /// `app` or `scenario:<id>`, as in store ids.
    public var description: String {
        switch self {
        case .app: "app"
        case .scenario(let id): "scenario:\(id)"
        }
    }

    /// Parses the id form; `nil` for anything else (an id with `/` or a control character included).
    public init?(idComponent text: String) {
        if text == "app" {
            self = .app
        } else if text.hasPrefix("scenario:"), let id = Optional(String(text.dropFirst(9))), StoreID.isPlainName(id) {
            self = .scenario(id: id)
        } else {
            return nil
        }
    }
}

/// Where a store keeps its data.
public enum Storage: Sendable, Hashable, CustomStringConvertible {
    /// In memory only; gone with the process (or the scenario).
    case memory
    /// A UserDefaults suite, one value per top-level key as JSON text; `nil` uses the scope's default suite.
    case userPrefs(suite: String?)
    /// A JSON file written atomically.
    case file(url: URL)
    /// A remote backend reached through a ``BackendAdapter``.
    case backend(namespace: String)
    /// The mirror of one service of a secret store (KeyscopePreferences makes these; values redacted). Never synced
    /// to a backend: a factory keeps such a store in memory, whatever adapter it was given.
    case secrets(service: String)

    /// `memory`, `userPrefs`, `userPrefs:<suite>`, `file:<path>`, `backend:<namespace>` or `secrets:<service>`, as
    /// in store ids.
    public var description: String {
        switch self {
        case .memory: "memory"
        case .userPrefs(nil): "userPrefs"
        case .userPrefs(let suite?): "userPrefs:\(suite)"
        case .file(let url): "file:\(url.path)"
        case .backend(let namespace): "backend:\(namespace)"
        case .secrets(let service): "secrets:\(service)"
        }
    }

    /// Parses the id form; `nil` for anything else.
    public init?(idComponent text: String) {
        if text == "memory" {
            self = .memory
        } else if text == "userPrefs" {
            self = .userPrefs(suite: nil)
        } else if text.hasPrefix("userPrefs:"), StoreID.isPlainName(String(text.dropFirst(10))) {
            self = .userPrefs(suite: String(text.dropFirst(10)))
        } else if text.hasPrefix("file:"), text.count > 5 {
            // `.notDirectory`: no `stat` of the path (a store file is never a directory), so parsing an id is
            // pure and cheap (a reader parses one per log line).
            self = .file(url: URL(filePath: String(text.dropFirst(5)), directoryHint: .notDirectory))
        } else if text.hasPrefix("backend:"), StoreID.isPlainName(String(text.dropFirst(8))) {
            self = .backend(namespace: String(text.dropFirst(8)))
        } else if text.hasPrefix("secrets:"), StoreID.isPlainName(String(text.dropFirst(8))) {
            self = .secrets(service: String(text.dropFirst(8)))
        } else {
            return nil
        }
    }

    /// Whether data in this storage outlives the process (and so carries a persisted version).
    public var isPersistent: Bool {
        if case .memory = self { return false }
        return true
    }

    /// File storages are equal when their paths are, as the id prints them, whatever URL spells the path: URLs
    /// that differ only in how they were made (`file:y` keeps the working directory as its base, `file::memory`
    /// and a path with a NUL are stored escaped) compare unequal, so an id parsed from another id's description
    /// was not equal to it (found by fuzz-codec and fuzz-recording). Hashing a file storage reads its path
    /// (about 0.25 µs); equal URLs skip that in `==`.
    public static func == (lhs: Storage, rhs: Storage) -> Bool {
        switch (lhs, rhs) {
        case (.memory, .memory): true
        case let (.userPrefs(a), .userPrefs(b)): a == b
        case let (.file(a), .file(b)): a == b || a.path == b.path
        case let (.backend(a), .backend(b)): a == b
        case let (.secrets(a), .secrets(b)): a == b
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .memory:
            hasher.combine(0)
        case .userPrefs(let suite):
            hasher.combine(1)
            hasher.combine(suite)
        case .file(let url):
            hasher.combine(2)
            hasher.combine(url.path)
        case .backend(let namespace):
            hasher.combine(3)
            hasher.combine(namespace)
        case .secrets(let service):
            hasher.combine(4)
            hasher.combine(service)
        }
    }
}

/// A store's identity, `<scope>/<storage>`: `app/memory`, `scenario:checkout/userPrefs:com.shop`.
public struct StoreID: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let scope: Scope
    public let storage: Storage
    /// `<scope>/<storage>`, as in the protocol and the log. Built once: the hub looks ids up on every change and
    /// every log line prints one, and a file storage's part reads its URL's path (about 0.25 µs).
    public let description: String

    public init(scope: Scope, storage: Storage) {
        self.scope = scope
        self.storage = storage
        self.description = "\(scope)/\(storage)"
    }

    /// Parses `<scope>/<storage>`; `nil` when either half is not valid.
    public init?(_ text: String) {
        guard let slash = text.firstIndex(of: "/"),
            let scope = Scope(idComponent: String(text[..<slash])),
            let storage = Storage(idComponent: String(text[text.index(after: slash)...]))
        else { return nil }
        self.init(scope: scope, storage: storage)
    }

    /// Equal scopes and storages (file storages by path). With equal scopes that is equal descriptions: each
    /// storage case prints its own prefix and its whole payload (a file its path, the very rule of `Storage ==`),
    /// so two storages print alike exactly when they are equal. The scopes are still compared, as a scenario made
    /// with a `/` in its id could print like another scope and storage.
    public static func == (lhs: StoreID, rhs: StoreID) -> Bool {
        lhs.scope == rhs.scope && lhs.description == rhs.description
    }

    /// The description alone: equal ids print alike (see `==`).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(description)
    }

    public static func < (lhs: StoreID, rhs: StoreID) -> Bool { lhs.description < rhs.description }

    /// Scenario ids, suites, namespaces and secret services: non-empty, no `/`, no control characters.
    static func isPlainName(_ text: String) -> Bool {
        !text.isEmpty && !text.unicodeScalars.contains { $0 == "/" || $0.properties.generalCategory == .control }
    }
}
