import Foundation
import KeyscopeCodec

/// Event lines read ahead in small batches and decoded on a second thread while the caller applies the events
/// before them: the pipeline behind ``RecordingReader`` on a machine with more than one core.
///
/// Replaying is two kinds of work: decoding each line (independent of every other line) and applying the events
/// in order (one after the other). Here the caller's thread reads the lines into batches (64 KiB each, at
/// most ``inFlight`` at a time, so memory stays bounded whatever the file's size), a worker thread decodes them in
/// order, and the caller takes them back in order. The batches hold at most ``inFlight`` × (``bytesPerBatch`` + the
/// longest line) bytes beside the line reader's buffer. When the batch it needs next is not decoded yet, the caller
/// decodes a later batch nobody has taken instead of waiting, so both cores stay busy whichever side is slower.
///
/// Nothing about the outcome depends on timing: each line is decoded on its own (a decoder's caches only make it
/// faster), every line keeps its number, and what went wrong, a line that cannot be read or decoded, is handed
/// back at that line, in order, exactly where the sequential reader would have thrown it.
final class DecodeAhead {
    /// How a line came out of decoding.
    enum Line {
        case entry(LogEntry)
        /// Only spaces, tabs and carriage returns.
        case blank
        case invalid(JanssonCodecError)
    }

    /// Lines read together, decoded together. Guarded by the queue's lock once shared.
    final class Batch: @unchecked Sendable {
        /// The number of the batch's first line.
        let firstLine: Int
        /// The lines, each with its `\n`.
        var bytes: [UInt8] = []
        /// Where each line's `\n` is in `bytes`.
        var ends: [Int] = []
        /// What reading the line after the batch's last one threw; the batch is the input's last.
        var failure: RecordingError?
        var decoded: [Line] = []
        var claimed = false
        var done = false

        init(firstLine: Int) { self.firstLine = firstLine }
    }

    /// Batches in flight at most: read, being decoded, or decoded and waiting.
    static let inFlight = 4
    /// A batch takes lines until it holds this many bytes (or ``linesPerBatch`` lines): a few hundred lines, so
    /// that handing batches between the threads (a lock, a wake-up) costs little per line.
    static let bytesPerBatch = 64 << 10
    /// The most lines a batch takes (tests make it small, to have many batches in a short recording).
    let linesPerBatch: Int

    private let lines: LineReader
    private let shared = Shared()
    private let decoder = LogLineDecoder()
    private var inputFinished = false
    private var worker: Thread?
    /// The most bytes the batches held at once, for ``RecordingReader/peakBufferBytes``.
    private(set) var peakBatchBytes = 0

    init(lines: LineReader, linesPerBatch: Int = 1024) {
        self.lines = lines
        self.linesPerBatch = max(1, linesPerBatch)
    }

    deinit { shared.stop() }

    /// The next batch in order, decoded; `nil` once every line was handed out.
    func nextBatch() -> Batch? {
        refill()
        // With one batch the caller decodes it itself: a short recording starts no thread.
        if worker == nil, shared.count > 1 { startWorker() }
        let batch = shared.takeFirst(helping: decoder)
        if inputFinished, shared.isEmpty { shared.stop() }
        return batch
    }

    /// Reads batches until ``inFlight`` are queued or the input ends (a reading error ends it too).
    private func refill() {
        while !inputFinished, shared.count < Self.inFlight {
            let batch = Batch(firstLine: lines.lineNumber + 1)
            batch.bytes.reserveCapacity(Self.bytesPerBatch)
            batch.ends.reserveCapacity(min(linesPerBatch, 1024))
            do throws(RecordingError) {
                let more = try lines.appendLines(
                    to: &batch.bytes, ends: &batch.ends, maxBytes: Self.bytesPerBatch, maxLines: linesPerBatch)
                if !more { inputFinished = true }
            } catch {
                batch.failure = error
                inputFinished = true
            }
            guard !batch.ends.isEmpty || batch.failure != nil else { return }
            shared.append(batch)
            peakBatchBytes = max(peakBatchBytes, shared.bytes)
        }
    }

    private func startWorker() {
        let shared = self.shared
        let thread = Thread {
            let decoder = LogLineDecoder()
            while let batch = shared.claim() {
                Self.decode(batch, with: decoder)
                shared.finish(batch)
            }
        }
        thread.name = "keyscope decode-ahead"
        worker = thread
        thread.start()
    }

    static func decode(_ batch: Batch, with decoder: LogLineDecoder) {
        batch.decoded.reserveCapacity(batch.ends.count)
        batch.bytes.withUnsafeBufferPointer { bytes in
            var start = 0
            for end in batch.ends {
                let line = UnsafeBufferPointer(rebasing: bytes[start..<end])
                start = end + 1
                if RecordingReader.isBlank(line) {
                    batch.decoded.append(.blank)
                    continue
                }
                do throws(JanssonCodecError) {
                    batch.decoded.append(.entry(try decoder.decode(line)))
                } catch {
                    batch.decoded.append(.invalid(error))
                }
            }
        }
    }

    /// The queue both threads share, under one lock.
    private final class Shared: @unchecked Sendable {
        // @unchecked: every property is read and written only with `condition` locked.
        private let condition = NSCondition()
        private var batches: [Batch] = []
        private var stopped = false

        var count: Int { condition.withLock { batches.count } }
        var isEmpty: Bool { count == 0 }
        var bytes: Int { condition.withLock { batches.reduce(0) { $0 + $1.bytes.capacity } } }

        func append(_ batch: Batch) {
            condition.withLock {
                batches.append(batch)
                condition.broadcast()
            }
        }

        /// For the worker: the first batch nobody took, waiting for one; `nil` once stopped.
        func claim() -> Batch? {
            condition.lock()
            defer { condition.unlock() }
            while !stopped {
                if let batch = batches.first(where: { !$0.claimed }) {
                    batch.claimed = true
                    return batch
                }
                condition.wait()
            }
            return nil
        }

        func finish(_ batch: Batch) {
            condition.withLock {
                batch.done = true
                condition.broadcast()
            }
        }

        /// Removes and returns the first batch once decoded, decoding later ones with `decoder` meanwhile.
        func takeFirst(helping decoder: LogLineDecoder) -> Batch? {
            condition.lock()
            defer { condition.unlock() }
            while let first = batches.first {
                if first.done {
                    batches.removeFirst()
                    return first
                }
                if let batch = batches.first(where: { !$0.claimed }) {
                    batch.claimed = true
                    condition.unlock()
                    DecodeAhead.decode(batch, with: decoder)
                    condition.lock()
                    batch.done = true
                    condition.broadcast()
                } else {
                    condition.wait()
                }
            }
            return nil
        }

        func stop() {
            condition.withLock {
                stopped = true
                batches.removeAll()
                condition.broadcast()
            }
        }
    }
}
