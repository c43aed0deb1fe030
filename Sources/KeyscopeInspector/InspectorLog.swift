import Logging

/// The inspector module's loggers (swift-log).
enum InspectorLog {
    static let hub = Logger(label: "keyscope.inspector")
}
