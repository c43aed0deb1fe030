import Foundation
import Synchronization

/// One benchmark client on its own thread: connects over loopback, waits for its snapshot, then reads every
/// message until it has received the entry with seq ``target`` (or the server closes).
///
/// ```swift
/// let client = BenchClient(mode: .parse)
/// client.start(port: server.port!, token: server.token!)
/// try client.waitUntilReady()
/// client.target.store(hub.lastSeq + 1000, ordering: .relaxed)
/// // … 1000 writes …
/// guard client.waitUntilFinished() else { … }
/// print(client.finishedAt, client.entries)
/// ```
final class BenchClient: @unchecked Sendable {
    // Unchecked: the counters below are written by the client's thread only, and read by other threads only after
    // ``waitUntilFinished(timeout:)`` returned true (the semaphore orders the accesses); the atomics are shared.

    enum Mode {
        /// Parses every message with jansson and counts the entries of `changes`.
        case parse
        /// As `parse`, and records the latency of every entry from the send stamp in its value.
        case parseTimed
        /// Parses every message with a validating streaming parser that builds no tree (``JSONScanner``): every
        /// byte checked, the entries' seqs read.
        case scan
        /// Does not parse `changes`: counts their bytes and skims the last seq from the end.
        case skim
    }

    let mode: Mode
    /// The seq after which the client is done (closes and records ``finishedAt``); `Int.max`: never.
    let target = Atomic<Int>(Int.max)
    /// The seq of the newest entry (or snapshot) received so far.
    let received = Atomic<Int>(0)

    private(set) var messages = 0
    private(set) var changesMessages = 0
    /// Entries counted in parsed `changes` messages (0 when skimming).
    private(set) var entries = 0
    /// Payload bytes of `changes` messages.
    private(set) var changesBytes = 0
    private(set) var gaps = 0
    private(set) var snapshotSeq = 0
    /// Monotonic nanoseconds at which the message holding ``target`` was read.
    private(set) var finishedAt: UInt64 = 0
    /// Per-entry latencies in nanoseconds (``Mode/parseTimed`` only).
    private(set) var latencies: [UInt64] = []
    /// The CPU time the client's thread used, connection and close included.
    private(set) var cpuNanoseconds: UInt64 = 0
    private(set) var failure: (any Error)?

    private let ready = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    init(mode: Mode) {
        self.mode = mode
        if mode == .parseTimed { latencies.reserveCapacity(200_000) }
    }

    /// Connects from a new thread (named `label`, for profiles); returns at once. With `resumingAfter`, the client
    /// asks for the log after that seq (`/ws?resume=N`) and is ready as soon as it is connected: no snapshot comes.
    func start(port: Int, token: String, label: String = "bench-client", resumingAfter: Int? = nil) {
        let thread = Thread { [self] in
            Thread.current.name = label  // from the thread itself, so that the kernel (and perf) knows it too
            run(port: port, token: token, resumingAfter: resumingAfter)
        }
        thread.name = label
        thread.start()
    }

    /// Waits for the snapshot (the client then receives every later entry); throws what went wrong before it.
    func waitUntilReady(timeout: Double = 10) throws {
        guard ready.wait(timeout: .now() + timeout) == .success else {
            throw BenchError("a client got no snapshot within \(timeout) s")
        }
        if let failure { throw BenchError("a client failed before its snapshot: \(failure)") }
    }

    /// Waits until the client has the target entry (or has stopped); false on time-out or failure.
    func waitUntilFinished(timeout: Double = 120) -> Bool {
        guard finished.wait(timeout: .now() + timeout) == .success else { return false }
        return failure == nil && finishedAt > 0
    }

    private func run(port: Int, token: String, resumingAfter: Int?) {
        var isReady = false
        do {
            let path = resumingAfter.map { "/ws?resume=\($0)" } ?? "/ws"
            let connection = try WebSocketConnection.open(port: port, token: token, path: path)
            if resumingAfter != nil {
                isReady = true
                ready.signal()
            }
            while let done = try connection.nextMessage({ payload, _ in try handle(payload, isReady: &isReady) }) {
                if done {
                    connection.close()
                    break
                }
            }
        } catch {
            failure = error
        }
        cpuNanoseconds = threadCPUNanoseconds()
        if !isReady { ready.signal() }
        finished.signal()
    }

    /// Handles one message; true once the target seq has arrived.
    private func handle(_ payload: UnsafeRawBufferPointer, isReady: inout Bool) throws -> Bool {
        let now = monotonicNanoseconds()
        messages += 1
        let summary: MessageSummary?
        switch mode {
        case .parse: summary = MessageParser.parse(payload, latencies: &latencies)
        case .parseTimed: summary = MessageParser.parse(payload, timed: true, receivedAt: now, latencies: &latencies)
        case .scan: summary = JSONScanner.scan(payload)
        case .skim: summary = MessageParser.skim(payload) ?? MessageParser.parse(payload, latencies: &latencies)
        }
        guard let summary else { throw ClientError.protocolViolation("a message that is not one JSON object") }
        switch summary.kind {
        case .changes:
            changesMessages += 1
            entries += summary.entries
            changesBytes += payload.count
            if let seq = summary.seq {
                received.store(seq, ordering: .relaxed)
                if seq >= target.load(ordering: .relaxed) {
                    finishedAt = now
                    return true
                }
            }
        case .snapshot:
            let seq = summary.seq ?? 0
            received.store(seq, ordering: .relaxed)
            if !isReady {
                snapshotSeq = seq
                isReady = true
                ready.signal()
            }
        case .gap:
            gaps += 1
        case .other:
            break
        }
        return false
    }
}

/// Monotonic nanoseconds (`CLOCK_MONOTONIC`): the clock of the producer's send stamps and the clients' receipts.
func monotonicNanoseconds() -> UInt64 { nanoseconds(of: CLOCK_MONOTONIC) }

/// The CPU time the calling thread has used (`CLOCK_THREAD_CPUTIME_ID`), in nanoseconds.
func threadCPUNanoseconds() -> UInt64 { nanoseconds(of: CLOCK_THREAD_CPUTIME_ID) }

/// The CPU time all threads of this process have used (`CLOCK_PROCESS_CPUTIME_ID`), in nanoseconds.
func processCPUNanoseconds() -> UInt64 { nanoseconds(of: CLOCK_PROCESS_CPUTIME_ID) }

private func nanoseconds(of clock: clockid_t) -> UInt64 {
    var now = timespec()
    clock_gettime(clock, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}
