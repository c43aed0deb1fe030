public import Foundation

/// A live subscription to a store, as the inspector lists it.
public struct SubscriptionInfo: Sendable, Hashable, Identifiable {
    /// Unique within the process.
    public let id: UInt64
    public let storeID: StoreID
    /// The paths it listens to (one for `publisher(for: path)`).
    public let keyPaths: [StoreKeyPath]
    /// What the subscriber called itself, if it said (`publisher(for:label:)`).
    public let label: String?
    /// When it subscribed.
    public let since: Date
    /// How many values it has received so far (the first, current value included).
    public let deliveries: Int
}
