import Foundation
import KeyscopeCore
import Synchronization

/// The labels the demo's components subscribe with, as the inspector lists them (``SubscriptionInfo/label``).
enum DemoLabel {
    /// `app/memory` `cart.items`: the number of items on the cart icon.
    static let cartBadge = "CartBadge"
    /// `app/memory` `cart.total`: the amount on the pay button.
    static let checkoutButton = "CheckoutButton"
    /// `app/memory` `user.name`: the signed-in shopper's name.
    static let profileHeader = "ProfileHeader"
    /// `app/memory` `session.pageViews`.
    static let sessionTimer = "SessionTimer"
    /// `app/memory` `cart.promo`: a path the demo never writes, so the inspector has a subscription to a missing
    /// value to show.
    static let promoBanner = "PromoBanner"
    /// The settings store's `settings.theme`.
    static let themeProvider = "ThemeProvider"
    /// `scenario:checkout/memory` `checkout.step`, while a checkout is open.
    static let stepIndicator = "StepIndicator"

    static let all = [
        cartBadge, checkoutButton, profileHeader, sessionTimer, promoBanner, themeProvider, stepIndicator,
    ]
}

/// What the demo's components last rendered, by label: the visible end of their subscriptions.
///
/// ```swift
/// screen[DemoLabel.cartBadge]   // "3"
/// ```
final class DemoScreen: Sendable {
    private let texts = Mutex<[String: String]>([:])

    subscript(label: String) -> String? {
        texts.withLock { $0[label] }
    }

    func render(_ label: String, _ text: String) {
        texts.withLock { $0[label] = text }
    }
}

/// The demo app's UI: components that subscribe to the stores with a label, as views would, and render what they
/// hear onto a ``DemoScreen``. The CheckoutButton also tells the reporter (if any) about the cart total.
///
/// ```swift
/// let components = DemoComponents(reporter: nil)
/// components.mount(app: app, settings: settings)
/// components.mountStepIndicator(on: checkoutStore)
/// ```
/// Not thread-safe: the ``DemoScript`` owns it and uses it under the service's lock. The sinks run on whichever
/// thread wrote (outside the store's lock) and touch only the screen and the reporter, which are `Sendable`.
final class DemoComponents {
    let screen = DemoScreen()
    private let reporter: DemoReporter?
    private var mounted: [AnyCancellable] = []
    private var stepIndicator: AnyCancellable?

    init(reporter: DemoReporter?) {
        self.reporter = reporter
    }

    /// Subscribes the app-wide components: five on `app/memory`, the ThemeProvider on the settings store.
    func mount(app: KeyValueStore, settings: KeyValueStore) {
        let screen = screen
        let reporter = reporter
        let appID = app.id
        mounted = [
            app.publisher(for: "cart.items", label: DemoLabel.cartBadge).sink { items in
                let count = (items?.arrayValue ?? []).reduce(Int64(0)) { $0 + ($1["quantity"]?.integerValue ?? 0) }
                screen.render(DemoLabel.cartBadge, count == 0 ? "" : "\(count)")
            },
            app.publisher(for: "cart.total", label: DemoLabel.checkoutButton).sink { total in
                screen.render(DemoLabel.checkoutButton, "Pay " + Self.amount(total?.doubleValue ?? 0))
                reporter?.totalChanged(total, store: appID, label: DemoLabel.checkoutButton)
            },
            app.publisher(for: "user.name", label: DemoLabel.profileHeader).sink { name in
                screen.render(DemoLabel.profileHeader, name?.stringValue ?? "Sign in")
            },
            app.publisher(for: "session.pageViews", label: DemoLabel.sessionTimer).sink { views in
                screen.render(DemoLabel.sessionTimer, "\(views?.integerValue ?? 0) pages")
            },
            app.publisher(for: "cart.promo", label: DemoLabel.promoBanner).sink { promo in
                screen.render(DemoLabel.promoBanner, promo?["text"]?.stringValue ?? "")
            },
            settings.publisher(for: "settings.theme", label: DemoLabel.themeProvider).sink { theme in
                let mode = theme?["mode"]?.stringValue ?? "light"
                let accent = theme?["accent"].flatMap { if case .color(let c) = $0 { c.hex } else { nil } }
                screen.render(DemoLabel.themeProvider, "\(mode) \(accent ?? "default")")
            },
        ]
    }

    /// Subscribes the StepIndicator to a checkout scenario's store (replacing the one of an earlier checkout).
    func mountStepIndicator(on store: KeyValueStore) {
        let screen = screen
        stepIndicator = store.publisher(for: "checkout.step", label: DemoLabel.stepIndicator).sink { step in
            let name = step?.stringValue ?? ""
            let steps = DemoCatalog.checkoutSteps
            let position = steps.firstIndex(of: name).map { " (\($0 + 1)/\(steps.count))" } ?? ""
            screen.render(DemoLabel.stepIndicator, name + position)
        }
    }

    /// A cart total with two decimals, as `String(format: "%.2f")` writes it (12.3 → "12.30"), without its cost:
    /// Foundation's formatting was a tenth of a demo change at high rates. Totals are whole cents; a value halfway
    /// between two cents may round the other way than printf.
    static func amount(_ value: Double) -> String {
        guard value.isFinite, abs(value) < 1e15 else { return String(format: "%.2f", value) }
        let cents = Int64((abs(value) * 100).rounded(.toNearestOrEven))
        let fraction = cents % 100
        let sign = value < 0 ? "-" : ""
        return "\(sign)\(cents / 100)." + (fraction < 10 ? "0" : "") + "\(fraction)"
    }

    /// Cancels the StepIndicator's subscription, as the view goes away when the checkout ends.
    func unmountStepIndicator() {
        stepIndicator?.cancel()
        stepIndicator = nil
        screen.render(DemoLabel.stepIndicator, "")
    }
}
