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

    /// Returns once a stop is requested (at once when it already was): what a serving command does after its
    /// start, until Ctrl-C or SIGTERM. It takes over from a task attached before.
    func waitUntilRequested() async {
        let waiter = Task {
            while !Task.isCancelled { try? await Task.sleep(for: .seconds(3600)) }
        }
        attach(waiter)
        await waiter.value
    }
}
