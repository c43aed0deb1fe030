import CLibWebSockets

/// Whether lws reads a connection's socket (`lws_rx_flow_control`): a session stops reading while what it owes the
/// client piles up, and reads again once that went out. Only a change reaches lws.
///
/// ```swift
/// session.reading.setPaused(true, on: wsi)    // lws stops reading this socket
/// session.reading.setPaused(true, on: wsi)    // already paused: nothing
/// ```
/// Touched only by the service thread.
package struct ReadFlow {
    /// Set while lws is told not to read the connection.
    package private(set) var isPaused = false

    package init() {}

    /// Pauses or resumes reading `wsi`; nothing when it already is so.
    package mutating func setPaused(_ paused: Bool, on wsi: OpaquePointer) {
        guard paused != isPaused else { return }
        isPaused = paused
        _ = lws_rx_flow_control(wsi, paused ? 0 : 1)
    }
}
