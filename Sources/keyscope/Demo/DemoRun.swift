import Dispatch
import Synchronization

/// One background run of a ``DemoService``: how its thread is told to stop or to look at the rate again, and how
/// callers wait for it to end.
///
/// ```swift
/// let run = DemoRun(id: 1)
/// // the thread:  while !run.stopRequested { …; run.nap(until: due) }; run.finish()
/// run.requestStop()
/// await run.finished()
/// ```
final class DemoRun: Sendable {
    private struct State {
        var stopRequested = false
        var isFinished = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    let id: Int
    private let state = Mutex(State())
    /// Wakes the thread from ``nap(until:)``: signalled by ``requestStop()`` and ``nudge()``. A signal that
    /// arrives while the thread is awake makes its next nap return at once, which only costs one more look.
    private let wake = DispatchSemaphore(value: 0)

    init(id: Int) {
        self.id = id
    }

    var stopRequested: Bool { state.withLock { $0.stopRequested } }

    /// Asks the thread to end after the change it is making, if any.
    func requestStop() {
        state.withLock { $0.stopRequested = true }
        wake.signal()
    }

    /// Wakes the thread so that it looks at the rate again.
    func nudge() {
        wake.signal()
    }

    /// Sleeps until `deadline`, or until ``requestStop()`` or ``nudge()``. Called by the run's thread only.
    func nap(until deadline: ContinuousClock.Instant) {
        let (seconds, attoseconds) = (deadline - .now).components
        guard seconds > 0 || attoseconds > 0 else { return }
        let nanoseconds = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
        _ = wake.wait(timeout: .now() + .nanoseconds(Int(clamping: nanoseconds)))
    }

    /// Marks the run ended and resumes everyone waiting in ``finished()``. Called by the run's thread, last.
    func finish() {
        let waiters = state.withLock { state in
            state.isFinished = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once the run's thread has made its last change.
    func finished() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let isFinished = state.withLock { state in
                if !state.isFinished { state.waiters.append(continuation) }
                return state.isFinished
            }
            if isFinished { continuation.resume() }
        }
    }
}
