public import KeyscopeCore
public import KeyscopeProtocol

/// What a WebSocket client gets from a feature that serves it instead of the hub's own stream (a fleet dashboard
/// serves `/ws?instance=ID` from another process's log): the messages of docs/protocol.md, and answers to the
/// client's requests.
///
/// ```swift
/// func stream(for query: [String: String]) throws(HubError) -> (any FeatureStream)? {
///     guard let id = query["instance"] else { return nil }    // the hub's own stream, as usual
///     return InstanceStream(view: view, instance: id)
/// }
/// ```
/// The server calls it on its service thread, one call at a time per client: ``next(maxEntries:maxBytes:)`` whenever
/// the client can take more and ``hasNews`` says there is some. The feature wakes the server when news arrives
/// (``InspectorHub/wakeClients()``).
public protocol FeatureStream: AnyObject, Sendable {
    /// Members added to (or replacing those of) the `hello` message the client gets first (`"instance": ID`,
    /// `"readOnly"`).
    var helloMembers: [String: StoreValue] { get }
    /// The next message for the client (a snapshot, `changes`, a `gap`, a list…); `nil` when there is none now.
    /// `maxEntries` and `maxBytes` bound a `changes` frame.
    func next(maxEntries: Int, maxBytes: Int) -> [UInt8]?
    /// Whether ``next(maxEntries:maxBytes:)`` would give a message.
    var hasNews: Bool { get }
    /// A request from the client (its message as sent). `answer` gets the `reply` (and any message to send before
    /// it, such as a resync's snapshot, first), exactly once, from any thread.
    func handle(_ request: [UInt8], answer: @escaping @Sendable ([[UInt8]]) -> Void)
}
