import Foundation
import KeyscopeLws
import Logging
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The threads that run the work of client requests (decoding, validating, applying through the hub, encoding the
/// reply, making snapshots), so that the service thread only moves bytes. A merge of 200,000 members costs the hub
/// about 0.9 s; run on the service thread, it held every other client's answers for as long (issue 23).
///
/// Each job names the client it is for. A client's jobs run one at a time, in the order they were submitted, so its
/// replies come back in the order of its requests and its writes apply in that order. Clients take turns: a client
/// whose job ends goes behind every client already waiting.
///
/// A job is *heavy* when its request is large (a wide write: its cost grows with its bytes). Only the first thread
/// runs heavy jobs; the others run only light ones (reads, snapshots, ordinary writes). So however many clients send
/// wide writes, they take one thread, and every other request finds a thread that waits at most for one light job
/// per client before it (and for a store's lock while a write applies to that store).
///
/// ```swift
/// let worker = RequestWorker<[UInt8]>(threads: 2, nice: 10, logger: logger) { waker.cancelServiceWait() }
/// worker.submit(ticket: 1, client: 7, heavy: false) { executor.execute(message).reply }
/// // on the service thread, once woken:
/// for (ticket, reply) in worker.takeFinished() { … }
/// worker.stop()   // jobs not started are dropped; a running one ends, its reply is dropped
/// ```
/// The threads start with the first job and end at ``stop()``.
final class RequestWorker<Reply: Sendable>: Sendable {
    typealias Ticket = UInt64
    typealias Client = UInt64

    private struct Job: Sendable {
        let ticket: Ticket
        let heavy: Bool
        let work: @Sendable () -> Reply
    }

    private struct State {
        /// Each client's jobs not started yet, oldest first.
        var waiting: [Client: [Job]] = [:]
        /// The clients with a job waiting and none running, in the order they get a thread.
        var turns: [Client] = []
        /// The clients whose job runs now.
        var running: Set<Client> = []
        /// Replies not taken yet by ``takeFinished()``, in the order their jobs ended.
        var finished: [(ticket: Ticket, reply: Reply)] = []
        var started = false
        var stopped = false
    }

    private enum Next {
        case run(Client, Job)
        case wait
        case exit
    }

    /// How many threads run jobs; the first also runs heavy ones.
    let threadCount: Int
    private let nice: Int
    private let logger: Logger
    private let onFinish: @Sendable () -> Void
    private let state = Mutex(State())
    /// One per thread, each signalled whenever a job may have become runnable and at ``stop()``: a thread that finds
    /// nothing it may run waits on its own again (a count left over only costs a look). One shared semaphore could
    /// lose a wake-up: a thread that may not run the new job would take the signal meant for the one that may.
    private let signals: [DispatchSemaphore]

    /// `onFinish` is called on a worker thread after each job whose reply is ready (it must wake the service thread).
    /// The threads run at `nice` on Linux, as the service thread does (``ServerOptions/serviceThreadNice``).
    init(threads: Int, nice: Int, logger: Logger, onFinish: @escaping @Sendable () -> Void) {
        self.threadCount = max(1, threads)
        self.signals = (0..<max(1, threads)).map { _ in DispatchSemaphore(value: 0) }
        self.nice = nice
        self.logger = logger
        self.onFinish = onFinish
    }

    /// Queues `work` for `client`, behind its earlier jobs; only the first thread runs it when it is `heavy`. Nothing
    /// happens once stopped.
    func submit(ticket: Ticket, client: Client, heavy: Bool, _ work: @escaping @Sendable () -> Reply) {
        let startThreads = state.withLock { state -> Bool in
            guard !state.stopped else { return false }
            let wasIdle = state.waiting[client] == nil && !state.running.contains(client)
            state.waiting[client, default: []].append(Job(ticket: ticket, heavy: heavy, work: work))
            if wasIdle { state.turns.append(client) }
            defer { state.started = true }
            return !state.started
        }
        if startThreads {
            for index in 0..<threadCount { launch(index) }
        }
        wakeThreads()
    }

    /// Hands in the reply of a job that answered later (its route's answer came from another thread), as if its job
    /// had just ended; dropped once stopped.
    func finishLater(ticket: Ticket, reply: Reply) {
        let kept = state.withLock { state -> Bool in
            guard !state.stopped else { return false }
            state.finished.append((ticket, reply))
            return true
        }
        if kept { onFinish() }
    }

    /// The replies of the jobs that ended since the last call, in the order they ended.
    func takeFinished() -> [(ticket: Ticket, reply: Reply)] {
        state.withLock { state in
            guard !state.finished.isEmpty else { return [] }
            defer { state.finished.removeAll(keepingCapacity: true) }
            return state.finished
        }
    }

    /// Jobs queued or running now, for every client.
    var jobCount: Int {
        state.withLock { state in state.running.count + state.waiting.values.reduce(0) { $0 + $1.count } }
    }

    /// Drops the jobs not started and ends the threads once their job (if any) is done; its reply is dropped.
    func stop() {
        let (started, dropped) = state.withLock { state in
            state.stopped = true
            state.turns = []
            state.finished = []
            defer { state.waiting = [:] }
            return (state.started, state.waiting)
        }
        // Released here rather than under the lock: a job may hold the last reference to what it was for.
        withExtendedLifetime(dropped) {}
        guard started else { return }
        wakeThreads()
    }

    private func wakeThreads() {
        for signal in signals { signal.signal() }
    }

    // MARK: The threads

    private func launch(_ index: Int) {
        let thread = Thread { [self] in
            ThreadSettings.nameOSThread("keyscope-work")
            ThreadSettings.lowerPriority(to: nice, logger: logger)
            runJobs(index)
        }
        thread.name = "keyscope-work-\(index)"
        // As the service thread's: the walks over a value at the depth limit need up to 2 MiB in a debug build.
        thread.stackSize = 4 << 20
        thread.start()
    }

    private func runJobs(_ index: Int) {
        while true {
            switch next(takesHeavy: index == 0) {
            case .exit:
                return
            case .wait:
                signals[index].wait()
            case .run(let client, let job):
                let reply = job.work()
                if job.heavy { FreedBlocks.merge() }
                let more = state.withLock { state -> Bool? in
                    state.running.remove(client)
                    guard !state.stopped else { return nil }
                    state.finished.append((job.ticket, reply))
                    guard state.waiting[client] != nil else { return false }
                    state.turns.append(client)
                    return true
                }
                guard let more else { continue }
                if more { wakeThreads() }
                onFinish()
            }
        }
    }

    /// The next job to run: the oldest job of the first client in turn whose oldest job this thread takes.
    private func next(takesHeavy: Bool) -> Next {
        state.withLock { state in
            guard !state.stopped else { return .exit }
            for (position, client) in state.turns.enumerated() {
                guard var jobs = state.waiting[client], let job = jobs.first, takesHeavy || !job.heavy else { continue }
                state.turns.remove(at: position)
                jobs.removeFirst()
                state.waiting[client] = jobs.isEmpty ? nil : jobs
                state.running.insert(client)
                return .run(client, job)
            }
            return .wait
        }
    }
}

/// The small blocks a heavy request freed, merged by glibc on the worker's thread.
///
/// Decoding a wide write frees hundreds of thousands of small blocks (jansson's nodes) into the heap of the thread
/// that decoded it. glibc merges a heap's small freed blocks at the next large allocation or free in that heap, and
/// that was often the service thread's (a frame, or a snapshot made on the worker and freed once sent): merging them
/// there held it for tens of milliseconds. The worker asks for the merge itself, right after decoding a heavy request
/// and after the job: an allocation of 64 KiB (below the size glibc maps apart) merges them. Nothing off glibc.
enum FreedBlocks {
    static func merge() {
        #if canImport(Glibc)
        free(malloc(64 << 10))
        #endif
    }
}
