import CLibWebSockets

/// What lws calls back for every event of a context's connections: the server's core, the conformance echo, the
/// CLI's client connection. Called on the context's service thread only.
///
/// ```swift
/// final class Echo: LwsCallbackHandler {
///     func handle(_ event: LwsEvent, on connection: LwsConnection, input: UnsafeMutableRawPointer?, length: Int)
///         -> Int32?
///     {
///         event == .established ? 0 : nil
///     }
/// }
/// ```
package protocol LwsCallbackHandler: AnyObject {
    /// Handles one event; returns what lws is to be answered (0 goes on, non-zero closes or refuses, as each event
    /// says), or `nil` for lws's default handling of it (`lws_callback_http_dummy`: serving its own error pages,
    /// closing an HTTP connection after its file…).
    func handle(_ event: LwsEvent, on connection: LwsConnection, input: UnsafeMutableRawPointer?, length: Int)
        -> Int32?
}

/// Where a context's user pointer leads: the handler of its connections' events. The context's owner keeps it
/// alive until after `lws_context_destroy`, and may clear ``handler`` first so that the teardown's events reach no
/// one.
final class LwsCallbackTarget {
    var handler: (any LwsCallbackHandler)?

    init(_ handler: any LwsCallbackHandler) { self.handler = handler }

    /// The pointer for `lws_context_creation_info.user`.
    var userPointer: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }
}

/// The C function lws calls for every event of the one protocol of every context made here: a capture-free
/// function that finds its handler through the context's user pointer (an ``LwsCallbackTarget``).
func lwsCallback(
    _ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
    _ input: UnsafeMutableRawPointer?, _ length: Int
) -> Int32 {
    guard let wsi, let context = lws_get_context(wsi), let raw = lws_context_user(context) else { return 0 }
    // The owner keeps the target alive while the context exists (see LwsCallbackTarget).
    unowned(unsafe) let target = Unmanaged<LwsCallbackTarget>.fromOpaque(raw).takeUnretainedValue()
    guard let handler = target.handler else { return 0 }
    let answer = handler.handle(LwsEvent(reason), on: LwsConnection(wsi), input: input, length: length)
    return answer ?? lws_callback_http_dummy(wsi, reason, user, input, length)
}
