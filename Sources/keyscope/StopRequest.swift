import Synchronization

/// Cancels the demo's task when a stop is requested, whether the request comes before or after the task exists.
final class StopRequest: Sendable {
    private struct State {
        var requested = false
        var task: Task<DemoSummary, Never>?
    }

    private let state = Mutex(State())

    func request() {
        let task = state.withLock { state in
            state.requested = true
            return state.task
        }
        task?.cancel()
    }

    func attach(_ task: Task<DemoSummary, Never>) {
        let requested = state.withLock { state in
            state.task = task
            return state.requested
        }
        if requested { task.cancel() }
    }
}
