import Dispatch
import KeyscopeCore
import Synchronization

extension InspectorHub {
    /// Checks the live subscriptions' delivery counts and, when any moved since the last check, marks the list as
    /// changed so every client is sent it again (the dashboard turns successive counts into deliveries per second).
    /// Runs on the hub's own timer (``HubOptions/deliveriesRefresh``); never from a store observer.
    func refreshDeliveries() {
        let total = subscriptions().reduce(0) { $0 &+ $1.deliveries }
        let changed = state.withLock { state -> Bool in
            guard state.running, total != state.deliveriesSent else { return false }
            state.deliveriesSent = total
            state.subscriptionsVersion += 1
            return true
        }
        if changed { appendSignal.raise() }
    }

    /// A repeating timer that calls ``refreshDeliveries()``, or `nil` when the option turns it off.
    func makeDeliveriesTimer() -> (any DispatchSourceTimer)? {
        guard let interval = options.deliveriesRefresh else { return nil }
        let nanoseconds =
            Int(interval.components.seconds) * 1_000_000_000
            + Int(interval.components.attoseconds / 1_000_000_000)
        let timer = DispatchSource.makeTimerSource(
            queue: DispatchQueue(label: "keyscope.hub.deliveries", qos: .utility))
        timer.schedule(
            deadline: .now() + .nanoseconds(nanoseconds), repeating: .nanoseconds(nanoseconds),
            leeway: .milliseconds(50))
        timer.setEventHandler { [weak self] in self?.refreshDeliveries() }
        timer.resume()
        return timer
    }
}
