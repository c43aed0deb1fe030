/// Whether lws reads a connection's socket (`lws_rx_flow_control`): a session stops reading while what it owes the
/// client piles up, and reads again once that went out. Only a change reaches lws.
///
/// ```swift
/// session.reading.setPaused(true, on: connection)    // lws stops reading this socket
/// session.reading.setPaused(true, on: connection)    // already paused: nothing
/// ```
/// Touched only by the service thread.
package struct ReadFlow {
    /// Set while lws is told not to read the connection.
    package private(set) var isPaused = false

    package init() {}

    /// Pauses or resumes reading `connection`; nothing when it already is so.
    package mutating func setPaused(_ paused: Bool, on connection: LwsConnection) {
        guard paused != isPaused else { return }
        isPaused = paused
        connection.setReceiving(!paused)
    }
}
