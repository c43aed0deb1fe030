import Foundation
import KeyscopeCore
import Synchronization

/// Prints what the demo's observer and its CheckoutButton hear: `keyscope demo`'s output. `keyscope serve --demo`
/// runs the same service without one.
///
/// ```swift
/// let service = DemoService(configuration: configuration, reporter: DemoReporter(threshold: 100))
/// ```
/// The observation hook calls ``handle(_:)`` under the changed store's lock, on the writing thread; the
/// CheckoutButton's subscription calls ``totalChanged(_:store:label:)`` right after, outside the lock. Both only
/// format and print.
final class DemoReporter: Sendable {
    /// The cart total at which the CheckoutButton's publisher announces a crossing.
    let threshold: Double

    private let lastTotal = Mutex<Double?>(nil)

    init(threshold: Double) {
        self.threshold = threshold
    }

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
            // Ordered by id (the order they were made): the list comes in no particular order.
            let names = subscriptions.sorted { $0.id < $1.id }.map {
                "\($0.label ?? "#\($0.id)") on \($0.keyPaths.map(\.description))"
            }
            text = ChangeFormatter.line(
                "subscriptions: " + (names.isEmpty ? "none" : names.joined(separator: ", ")), store: id)
        }
        Console.line(text)
    }

    /// The CheckoutButton's values of `cart.total`: prints the first one, then only when the total crosses the
    /// threshold.
    func totalChanged(_ value: StoreValue?, store: StoreID, label: String) {
        let total = value?.doubleValue ?? 0
        let previous = lastTotal.withLock { last in
            defer { last = total }
            return last
        }
        let shown = ChangeFormatter.value(.number(total))
        let text: String
        if let previous {
            if previous < threshold, total >= threshold {
                text = "cart.total rose to \(shown), at or above \(threshold)"
            } else if previous >= threshold, total < threshold {
                text = "cart.total fell to \(shown), below \(threshold)"
            } else {
                return
            }
        } else {
            text = "cart.total is \(shown); watching for it to cross \(threshold)"
        }
        Console.line(ChangeFormatter.line("publisher \(label): \(text)", store: store))
    }
}
