public import KeyscopeInspector
import KeyscopeProtocol
public import Logging
import Synchronization

/// An instance's membership of a fleet (docs/fleet.md "Fleet inspection"): a feature of its inspector that
/// publishes its presence, its change log and its snapshot to Redis, and answers the requests fleet dashboards send
/// it, through its own validated write path.
///
/// ```swift
/// let fleet = try FleetOptions(redis: "redis://127.0.0.1:6379", fleet: "shop", instance: "shop-1")
/// let inspector = try Inspector.start(features: [FleetMember(fleet)])
/// ```
/// It reads the hub's log with a cursor, like any client of the inspector, so a store's `set` never waits for
/// Redis; when Redis is unreachable the instance goes on and rejoins by itself. Secret stores' values are redacted
/// before they leave. It stops when its inspector stops (the instance is then shown `gone`), or with ``stop()``.
public final class FleetMember: InspectorFeature {
    public let name = "fleet"
    public let options: FleetOptions
    private let link = HubLink()
    private let publisher: FleetPublisher
    private let responder: FleetResponder

    /// The request type a dashboard sends when it needs a fresh snapshot of the instance.
    static let snapshotRequestType = "fleet.snapshot"
    /// The version the instance reports.
    static var version: String { InspectorProtocol.packageVersion }

    public init(_ options: FleetOptions, logger: Logger = Logger(label: "keyscope.fleet")) {
        self.options = options
        publisher = FleetPublisher(options: options, link: link, logger: logger)
        responder = FleetResponder(options: options, link: link, publisher: publisher)
    }

    public var routes: [FeatureRoute] { [] }

    /// The last seq of the hub's log this instance has published to the fleet (0 before its first join).
    public var publishedSeq: Int { publisher.published.load(ordering: .acquiring) }

    public func attached(to hub: InspectorHub) {
        link.set(hub)
        publisher.start()
        responder.start()
    }

    /// Leaves the fleet (the instance is shown `gone` at once); its inspector goes on.
    public func stop() {
        publisher.stop()
        responder.stop()
    }

    /// ``stop()``, then waits (at most `timeout`) until the fleet has been told: for a process about to exit.
    public func leave(timeout: Duration = .seconds(1)) {
        stop()
        _ = publisher.waitUntilFinished(timeout: timeout)
    }
}
