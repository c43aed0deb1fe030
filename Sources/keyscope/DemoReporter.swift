import Foundation
import KeyscopeCore
import Synchronization

/// Prints what the demo's observer and publisher hear, and counts it for the closing summary.
///
/// The observation hook calls ``handle(_:)`` under the changed store's lock, on the writing thread; the cart
/// publisher calls ``cartChanged(_:)`` right after, outside the lock. Both only format, print and count.
final class DemoReporter: Sendable {
    /// The cart total at which the demo's publisher announces a crossing.
    let threshold: Int64

    private struct State {
        var changes = 0
        var stores: [String] = []
        var lastTotal: Int64?
    }

    private let state = Mutex(State())

    init(threshold: Int64) {
        self.threshold = threshold
    }

    /// Changes heard so far.
    var changes: Int { state.withLock { $0.changes } }

    /// The ids of the stores heard so far, in the order they first appeared.
    var stores: [String] { state.withLock { $0.stores } }

    /// The observation hook: one line per activity.
    func handle(_ activity: StoreActivity) {
        let text: String
        switch activity {
        case .registered(let id, let version, let root):
            text = ChangeFormatter.line("registered, version \(version), \(ChangeFormatter.value(root))", store: id)
        case .changed(let change):
            text = ChangeFormatter.line(for: change)
        case .reset(let id, let version):
            text = ChangeFormatter.line("reset to {} for version \(version)", store: id)
        case .removed(let id):
            text = ChangeFormatter.line("removed from the registry", store: id)
        case .subscriptionsChanged(let id, let subscriptions):
            let names = subscriptions.map { "\($0.label ?? "#\($0.id)") on \($0.keyPaths.map(\.description))" }
            text = ChangeFormatter.line(
                "subscriptions: " + (names.isEmpty ? "none" : names.joined(separator: ", ")), store: id)
        }
        state.withLock { state in
            if case .changed = activity { state.changes += 1 }
            let id = activity.storeID.description
            if !state.stores.contains(id) { state.stores.append(id) }
        }
        Console.line(text)
    }

    /// The `demo-cart` publisher's values: prints the first one, then only when the total crosses the threshold.
    func cartChanged(_ cart: StoreValue?, store: StoreID, label: String) {
        let total = cart?["total"]?.integerValue ?? 0
        let previous = state.withLock { state in
            defer { state.lastTotal = total }
            return state.lastTotal
        }
        let text: String
        if let previous {
            if previous < threshold, total >= threshold {
                text = "cart.total rose to \(total), at or above \(threshold)"
            } else if previous >= threshold, total < threshold {
                text = "cart.total fell to \(total), below \(threshold)"
            } else {
                return
            }
        } else {
            text = "cart.total is \(total); watching for it to cross \(threshold)"
        }
        Console.line(ChangeFormatter.line("publisher \(label): \(text)", store: store))
    }
}
