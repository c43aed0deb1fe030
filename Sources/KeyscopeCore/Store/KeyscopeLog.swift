import Logging

/// The loggers of the library (swift-log); configure output with `LoggingSystem.bootstrap` as usual.
enum KeyscopeLog {
    static let store = Logger(label: "keyscope.store")
    static let persistence = Logger(label: "keyscope.persistence")
    static let factory = Logger(label: "keyscope.factory")
}
