/// A store's state as persisted: its root object and the version of its shape.
public struct PersistedState: Sendable, Hashable {
    public var root: StoreValue
    public var version: SemanticVersion

    public init(root: StoreValue, version: SemanticVersion) {
        self.root = root
        self.version = version
    }
}

/// Loads and saves one store's data in one place (a file, a UserDefaults suite, a backend namespace).
protocol PersistenceDriver: Sendable {
    /// The saved state, or `nil` when nothing was saved yet.
    func load() throws(StoreError) -> PersistedState?
    /// Replaces the saved state with `state`, all at once.
    func save(_ state: PersistedState) throws(StoreError)
    /// Top-level keys the storage keeps for itself; writes to them are refused.
    var reservedRootKeys: Set<String> { get }
}

extension PersistenceDriver {
    var reservedRootKeys: Set<String> { [] }
}

extension PersistedState {
    /// The document form used by files and backends: `{"version": "1.0.0", "root": {…}}`.
    var document: StoreValue {
        .object(["version": .string(version.description), "root": root])
    }

    init(document: StoreValue, source: String) throws(StoreError) {
        guard case .object(let fields) = document,
            let versionText = fields["version"]?.stringValue, let version = SemanticVersion(versionText),
            case .object? = fields["root"], let root = fields["root"]
        else {
            throw StoreError(
                code: .persistence,
                message: "\(source) is not a Keyscope store document ({\"version\": \"1.0.0\", \"root\": {…}})")
        }
        self.init(root: root, version: version)
    }
}
