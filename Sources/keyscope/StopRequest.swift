import Synchronization

/// Cancels a command's main task when a stop is requested (Ctrl-C, SIGTERM), whether the request comes before or
/// after the task exists.
final class StopRequest: Sendable {
    private struct State {
        var requested = false
        var cancel: (@Sendable () -> Void)?
    }

    private let state = Mutex(State())

    func request() {
        let cancel = state.withLock { state in
            state.requested = true
            return state.cancel
        }
        cancel?()
    }

    func attach<Success: Sendable>(_ task: Task<Success, Never>) {
        let requested = state.withLock { state in
            state.cancel = { task.cancel() }
            return state.requested
        }
        if requested { task.cancel() }
    }
}
