import Dispatch
import Foundation
import Logging
import Synchronization
import Testing

@testable import KeyscopeServer

/// The worker that runs requests off the service thread: a client's jobs one at a time and in order, clients taking
/// turns, heavy jobs on one thread only, and nothing run after a stop.
@Suite struct RequestWorkerTests {
    /// A worker whose finished jobs signal `finished` once each.
    final class Harness: Sendable {
        let finished = DispatchSemaphore(value: 0)
        let worker: RequestWorker<Int>

        init(threads: Int) {
            let finished = finished
            worker = RequestWorker(threads: threads, nice: 0, logger: Logger(label: "test")) { finished.signal() }
        }

        /// Waits for `count` jobs to finish (a guard against hanging, not a timing) and returns their replies.
        func replies(_ count: Int) -> [Int] {
            for _ in 0..<count {
                guard finished.wait(timeout: .now() + 30) == .success else { break }
            }
            return worker.takeFinished().map(\.reply)
        }

        deinit { worker.stop() }
    }

    /// A gate a job waits at until the test opens it.
    final class Gate: Sendable {
        private let semaphore = DispatchSemaphore(value: 0)
        let reached = DispatchSemaphore(value: 0)
        func wait() {
            reached.signal()
            semaphore.wait()
        }
        func open() { semaphore.signal() }
    }

    @Test func aClientsJobsRunOneAtATimeInTheOrderTheyCame() {
        let harness = Harness(threads: 2)
        let log = Mutex<(order: [Int], running: Int, overlapped: Bool)>(([], 0, false))
        for index in 0..<200 {
            harness.worker.submit(ticket: UInt64(index), client: 1, heavy: index % 3 == 0) {
                log.withLock { log in
                    log.overlapped = log.overlapped || log.running > 0
                    log.running += 1
                }
                defer { log.withLock { $0.running -= 1 } }
                log.withLock { $0.order.append(index) }
                return index
            }
        }
        #expect(harness.replies(200) == Array(0..<200))
        #expect(log.withLock { $0.order } == Array(0..<200))
        #expect(log.withLock { $0.overlapped } == false)
    }

    @Test func clientsTakeTurns() {
        let harness = Harness(threads: 1)
        let gate = Gate()
        let order = Mutex<[String]>([])
        func job(_ name: String) -> @Sendable () -> Int {
            {
                order.withLock { $0.append(name) }
                return 0
            }
        }
        harness.worker.submit(ticket: 1, client: 1, heavy: false) {
            gate.wait()
            order.withLock { $0.append("a1") }
            return 0
        }
        #expect(gate.reached.wait(timeout: .now() + 30) == .success)
        harness.worker.submit(ticket: 2, client: 1, heavy: false, job("a2"))
        harness.worker.submit(ticket: 3, client: 1, heavy: false, job("a3"))
        harness.worker.submit(ticket: 4, client: 2, heavy: false, job("b1"))
        gate.open()
        _ = harness.replies(4)
        // Client 1 goes behind client 2, which was waiting when a1 ended.
        #expect(order.withLock { $0 } == ["a1", "b1", "a2", "a3"])
    }

    @Test func aLightJobRunsWhileAnotherClientsHeavyJobRuns() {
        let harness = Harness(threads: 2)
        let gate = Gate()
        harness.worker.submit(ticket: 1, client: 1, heavy: true) {
            gate.wait()
            return 1
        }
        #expect(gate.reached.wait(timeout: .now() + 30) == .success)
        harness.worker.submit(ticket: 2, client: 2, heavy: false) { 2 }
        // The heavy job is still held at its gate: the light one ran on the other thread.
        #expect(harness.replies(1) == [2])
        gate.open()
        #expect(harness.replies(1) == [1])
    }

    @Test func heavyJobsRunOnOneThreadOnly() {
        let harness = Harness(threads: 2)
        let gate = Gate()
        let firstDone = Atomic<Bool>(false)
        let secondSawFirstDone = Mutex<Bool?>(nil)
        harness.worker.submit(ticket: 1, client: 1, heavy: true) {
            gate.wait()
            firstDone.store(true, ordering: .sequentiallyConsistent)
            return 1
        }
        #expect(gate.reached.wait(timeout: .now() + 30) == .success)
        harness.worker.submit(ticket: 2, client: 2, heavy: true) {
            secondSawFirstDone.withLock { $0 = firstDone.load(ordering: .sequentiallyConsistent) }
            return 2
        }
        // A light job behind it runs on the second thread, which passes over the heavy one to take it.
        harness.worker.submit(ticket: 3, client: 3, heavy: false) { 3 }
        #expect(harness.replies(1) == [3])
        #expect(secondSawFirstDone.withLock { $0 } == nil, "the second heavy job started beside the first")
        gate.open()
        #expect(harness.replies(2) == [1, 2])
        #expect(secondSawFirstDone.withLock { $0 } == true)
    }

    @Test func stopDropsTheJobsNotStartedAndTheReplyOfTheRunningOne() {
        final class Held: Sendable {}
        let harness = Harness(threads: 1)
        let gate = Gate()
        let ran = Atomic<Bool>(false)
        harness.worker.submit(ticket: 1, client: 1, heavy: false) {
            gate.wait()
            return 1
        }
        #expect(gate.reached.wait(timeout: .now() + 30) == .success)
        weak var weakHeld: Held?
        do {
            let held = Held()
            weakHeld = held
            harness.worker.submit(ticket: 2, client: 2, heavy: false) {
                withExtendedLifetime(held) { ran.store(true, ordering: .sequentiallyConsistent) }
                return 2
            }
        }
        #expect(harness.worker.jobCount == 2)
        harness.worker.stop()
        // The waiting job was dropped at once, with what it held.
        #expect(weakHeld == nil)
        #expect(harness.worker.jobCount == 1)
        gate.open()
        harness.worker.submit(ticket: 3, client: 3, heavy: false) { 3 }
        #expect(waitUntil { harness.worker.jobCount == 0 }, "the running job never ended")
        #expect(harness.worker.takeFinished().isEmpty)
        let didRun = ran.load(ordering: .sequentiallyConsistent)
        #expect(!didRun)
    }

    /// Polls `condition` until it holds; false when it did not within 30 s (a guard against hanging).
    func waitUntil(_ condition: () -> Bool) -> Bool {
        let deadline = ContinuousClock.now + .seconds(30)
        while !condition() {
            guard ContinuousClock.now < deadline else { return false }
            Thread.sleep(forTimeInterval: 0.001)
        }
        return true
    }
}
