import KeyscopeLws
import Synchronization

/// What other threads use to wake the service thread: the lws context to cancel a service wait on, while the service
/// loop runs.
///
/// Its own object, apart from ``ServerCore``, so that the hook the server installs in the hub's
/// ``KeyscopeInspector/InspectorHub/appendSignal`` (called once per burst of changes) can hold it strongly without
/// holding the server: it keeps nothing else alive, and the hub releases the hook when the server stops.
final class ServiceWaker: Sendable {
    /// The context while the service loop runs (set and cleared by the service thread).
    let context = Mutex<LwsContextHandle?>(nil)

    /// Makes the service thread's `lws_service` return (it then handles `.eventWaitCancelled`); nothing once the
    /// context is gone.
    func cancelServiceWait() {
        context.withLock { $0?.wake() }
    }
}
