public import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads `\n`-ended lines from a file, a file descriptor (standard input, a pipe) or bytes in memory, holding one
/// line at a time: `read(2)` in chunks into one buffer that never grows past a chunk plus the longest line allowed.
///
/// ```swift
/// let lines = try LineReader(contentsOf: URL(fileURLWithPath: "session.kslog"))
/// while let line = try lines.nextLine() {     // without its "\n"
///     print(lines.lineNumber, line.count)
/// }
/// if lines.tornTailBytes > 0 { print("dropped \(lines.tornTailBytes) bytes after the last newline") }
/// ```
/// A last line without its `\n` is a torn tail (docs/recording.md): it is never returned, even when it would parse,
/// and never an error; ``tornTailBytes`` says how long it was once ``nextLine()`` has returned `nil`. A line longer
/// than ``maxLineLength`` is an error (``RecordingError/Code/lineTooLong``), so memory stays bounded.
///
/// Not thread-safe: use it from one thread at a time. A line returned by ``nextLine()`` is a slice of the reader's
/// buffer; keep it past the next call only if a copy is fine.
public final class LineReader {
    /// The longest line read by default: 64 MiB.
    public static let defaultMaxLineLength = 64 << 20
    /// How much one `read(2)` asks for by default: 128 KiB.
    public static let defaultChunkSize = 128 << 10

    private enum Source {
        case descriptor(Int32, closes: Bool)
        case memory([UInt8], offset: Int)
        case finished
    }

    /// Where the bytes come from, for messages: a path, `standard input`, `memory`.
    public let name: String
    /// The longest line accepted, in bytes without the `\n`.
    public let maxLineLength: Int
    private let chunkSize: Int
    private var source: Source
    /// The bytes read and not yet returned start at ``start``; everything before it was handed out.
    private var buffer: [UInt8] = []
    private var start = 0
    /// How many bytes from ``start`` are known to hold no newline (so a search never looks at a byte twice).
    private var scanned = 0
    private var scratch: [UInt8]
    private var reachedEnd = false

    /// The number of lines returned so far: the 1-based number of the last one.
    public private(set) var lineNumber = 0
    /// Every byte taken from the source so far.
    public private(set) var bytesRead = 0
    /// The length of the torn tail (bytes after the last `\n`), known once ``nextLine()`` returned `nil`.
    public private(set) var tornTailBytes = 0
    /// The most memory the reader's buffers held at once (their capacity), for checking that memory stays bounded.
    public private(set) var peakBufferBytes = 0

    /// A reader of `fileDescriptor`, which is closed when the reader ends if `closesWhenDone`.
    public init(
        fileDescriptor: Int32, closesWhenDone: Bool = false, name: String? = nil,
        maxLineLength: Int = defaultMaxLineLength, chunkSize: Int = defaultChunkSize
    ) {
        self.name = name ?? "file descriptor \(fileDescriptor)"
        self.maxLineLength = max(0, maxLineLength)
        self.chunkSize = max(1, chunkSize)
        self.source = .descriptor(fileDescriptor, closes: closesWhenDone)
        self.scratch = [UInt8](repeating: 0, count: self.chunkSize)
    }

    /// A reader of the file at `url`.
    /// - Throws: ``RecordingError/Code/io`` when the file cannot be opened.
    public convenience init(
        contentsOf url: URL, maxLineLength: Int = defaultMaxLineLength, chunkSize: Int = defaultChunkSize
    ) throws(RecordingError) {
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw RecordingError(.io, line: nil, "cannot open \(url.path): \(String(cString: strerror(errno)))")
        }
        self.init(
            fileDescriptor: descriptor, closesWhenDone: true, name: url.path, maxLineLength: maxLineLength,
            chunkSize: chunkSize)
    }

    /// A reader of standard input (left open when the reader ends).
    public static func standardInput(maxLineLength: Int = defaultMaxLineLength) -> LineReader {
        LineReader(fileDescriptor: STDIN_FILENO, name: "standard input", maxLineLength: maxLineLength)
    }

    /// A reader of `bytes`, handed out `chunkSize` at a time exactly as a file would be (small chunks test the
    /// seams).
    public init(
        bytes: [UInt8], name: String = "memory", maxLineLength: Int = defaultMaxLineLength,
        chunkSize: Int = defaultChunkSize
    ) {
        self.name = name
        self.maxLineLength = max(0, maxLineLength)
        self.chunkSize = max(1, chunkSize)
        self.source = .memory(bytes, offset: 0)
        self.scratch = [UInt8](repeating: 0, count: self.chunkSize)
    }

    deinit { finish() }

    /// The next complete line without its `\n`, or `nil` at the end (after which ``tornTailBytes`` is known).
    /// - Throws: ``RecordingError/Code/lineTooLong`` for a line over ``maxLineLength`` bytes, or
    ///   ``RecordingError/Code/io`` when reading fails.
    public func nextLine() throws(RecordingError) -> ArraySlice<UInt8>? {
        while true {
            if let newline = findNewline() {
                let length = newline - start
                guard length <= maxLineLength else { throw tooLong() }
                let line = buffer[start..<newline]
                start = newline + 1
                scanned = 0
                lineNumber += 1
                return line
            }
            guard try refillOrEnd() else { return nil }
        }
    }

    /// Appends whole lines to `bytes`, each with its `\n`, and the index of each `\n` in `bytes` to `ends`, until
    /// `bytes` holds at least `maxBytes` bytes, `ends` holds `maxLines` indices, or the input ends; `false` when it
    /// ended (``tornTailBytes`` is known then). What ``nextLine()`` would have returned, line by line, and the same
    /// errors: the lines before a bad one are in `bytes` when it throws.
    ///
    /// For ``DecodeAhead``, which moves lines in batches: the lines found in the buffer are copied as one run, not
    /// one slice at a time (a line by line copy cost about a tenth of a replay's main thread).
    func appendLines(to bytes: inout [UInt8], ends: inout [Int], maxBytes: Int, maxLines: Int) throws(RecordingError)
        -> Bool
    {
        while true {
            // The lines found in the buffer as it is now: buffer[runStart..<start].
            let runStart = start
            var failure: RecordingError?
            while bytes.count + start - runStart < maxBytes, ends.count < maxLines, let newline = findNewline() {
                guard newline - start <= maxLineLength else {
                    failure = tooLong()
                    break
                }
                ends.append(bytes.count + newline - runStart)
                start = newline + 1
                scanned = 0
                lineNumber += 1
            }
            if start > runStart {
                // Grown to the exact size a long line needs, not doubled: memory stays bounded by the batch.
                if bytes.count + start - runStart > bytes.capacity {
                    bytes.reserveCapacity(bytes.count + start - runStart)
                }
                bytes.append(contentsOf: buffer[runStart..<start])
            }
            if let failure { throw failure }
            if bytes.count >= maxBytes || ends.count >= maxLines { return true }
            guard try refillOrEnd() else { return false }
        }
    }

    /// Past the last whole line in the buffer: what is left of a line must fit in ``maxLineLength``; at the end of the
    /// input it is the torn tail (`false`), otherwise more is read (`true`).
    private func refillOrEnd() throws(RecordingError) -> Bool {
        scanned = buffer.count - start
        guard scanned <= maxLineLength else { throw tooLong() }
        if reachedEnd {
            tornTailBytes = scanned
            start = buffer.count
            scanned = 0
            return false
        }
        try refill()
        return true
    }

    private func tooLong() -> RecordingError {
        RecordingError(
            .lineTooLong, line: lineNumber + 1,
            "the line is longer than \(maxLineLength) bytes (the reader's limit; raise --max-line if it is meant)")
    }

    /// The index of the first `\n` at or after `start + scanned`, if the buffer holds one.
    private func findNewline() -> Int? {
        let from = start + scanned
        guard from < buffer.count else { return nil }
        return buffer.withUnsafeBufferPointer { bytes -> Int? in
            let base = bytes.baseAddress!
            guard let found = memchr(base + from, Int32(UInt8(ascii: "\n")), bytes.count - from) else { return nil }
            return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
        }
    }

    /// Drops the bytes already handed out and appends up to one chunk from the source.
    private func refill() throws(RecordingError) {
        if start > 0 {
            buffer.removeSubrange(0..<start)
            start = 0
        }
        let count = try readChunk()
        if count == 0 {
            reachedEnd = true
            finish()
        } else {
            buffer.append(contentsOf: scratch[0..<count])
            bytesRead += count
        }
        peakBufferBytes = max(peakBufferBytes, buffer.capacity + scratch.capacity)
    }

    /// Reads up to one chunk into ``scratch``; 0 at the end.
    private func readChunk() throws(RecordingError) -> Int {
        switch source {
        case .finished:
            return 0
        case .memory(let bytes, let offset):
            let count = min(chunkSize, bytes.count - offset)
            scratch.withUnsafeMutableBufferPointer { target in
                bytes.withUnsafeBufferPointer { all in
                    _ = UnsafeMutableBufferPointer(rebasing: target[0..<count]).initialize(
                        from: all[offset..<offset + count])
                }
            }
            source = .memory(bytes, offset: offset + count)
            return count
        case .descriptor(let descriptor, _):
            while true {
                let count = scratch.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, chunkSize) }
                if count >= 0 { return count }
                let code = errno
                guard code == EINTR else {
                    throw RecordingError(.io, line: nil, "cannot read \(name): \(String(cString: strerror(code)))")
                }
            }
        }
    }

    /// Closes the descriptor if the reader owns it; nothing more is read.
    private func finish() {
        if case .descriptor(let descriptor, closes: true) = source { close(descriptor) }
        source = .finished
    }
}
