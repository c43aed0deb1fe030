extension StoreID {
    /// Parses a store id as any Keyscope wrote it, this one or an earlier one: an id renamed since reads as its
    /// current form (see ``current``).
    ///
    /// ```swift
    /// StoreID.recorded("app/backend:secrets.com.shop.api")   // app/secrets:com.shop.api
    /// StoreID.recorded("app/memory")                         // app/memory
    /// ```
    /// Readers of recorded data (recordings, golden files) use it, so that what was recorded before a rename still
    /// loads under the name the stores have now; live requests use ``init(_:)``, which takes an id as it is. (A
    /// static function rather than an initialiser, so that `StoreID.init` stays unambiguous.)
    public static func recorded(_ text: String) -> StoreID? {
        StoreID(text)?.current
    }

    /// This id as Keyscope names the store now. One kind of id was renamed: the mirrors of secret-store services
    /// were `app/backend:secrets.<service>` until docs/store.md gave them `secrets:<service>` (they are never backend
    /// stores), so `app/backend:secrets.S` is `app/secrets:S`. Every other id is itself.
    public var current: StoreID {
        guard scope == .app, case .backend(let namespace) = storage, namespace.hasPrefix(Self.legacySecretsPrefix),
            namespace.count > Self.legacySecretsPrefix.count
        else { return self }
        return StoreID(
            scope: .app, storage: .secrets(service: String(namespace.dropFirst(Self.legacySecretsPrefix.count))))
    }

    /// The namespace prefix of the secret-store mirrors' former ids (`app/backend:secrets.<service>`).
    static let legacySecretsPrefix = "secrets."
}
