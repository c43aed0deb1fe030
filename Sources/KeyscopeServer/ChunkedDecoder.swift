/// Decodes a request body sent with `Transfer-Encoding: chunked` (RFC 9112 §7.1) as it arrives, into the caller's
/// bytes: only the framing's state is kept here.
///
/// lws 4.1 hands such a body to the server undecoded and never reports its end (it only knows a `Content-Length`),
/// so the server decodes it and answers once the last chunk is in.
///
/// ```swift
/// var decoder = ChunkedDecoder()
/// var body: [UInt8] = []
/// try decoder.feed(UnsafeRawBufferPointer(start: input, count: length), into: &body, limit: 4 << 20)
/// if decoder.isComplete { handle(body) }
/// ```
/// Chunk extensions and trailer fields are read and ignored. A bare LF is taken for CRLF.
struct ChunkedDecoder {
    /// Why a body was refused.
    enum Failure: Error, Equatable {
        /// The decoded data would pass the limit.
        case tooLarge
        /// The framing is broken; the text says where.
        case malformed(String)
    }

    private enum State {
        /// Reading a chunk-size line (hex digits, maybe `;extensions`).
        case size
        /// Copying a chunk's data: this many bytes are still to come.
        case data(remaining: Int)
        /// Expecting the CRLF after a chunk's data.
        case dataEnd(sawCR: Bool)
        /// Reading trailer lines after the last (zero-size) chunk, until an empty one.
        case trailers
        case complete
    }

    private var state = State.size
    /// The current size or trailer line, without its line end.
    private var line: [UInt8] = []
    /// The trailer section's size so far.
    private var trailerBytes = 0

    /// The longest chunk-size line (with extensions) and trailer section taken.
    static let maxLineBytes = 1024
    static let maxTrailerBytes = 16 << 10

    /// Whether the last chunk and the trailer section's end are in: the body is whole.
    var isComplete: Bool {
        if case .complete = state { return true }
        return false
    }

    /// Decodes the next bytes of the body, appending its data to `data`. Throws `.tooLarge` as soon as `data` would
    /// pass `limit` (a chunk's announced size counts before its data arrives) and `.malformed` where the framing
    /// breaks. Bytes after the end are ignored (the server closes the connection after its answer).
    mutating func feed(_ bytes: UnsafeRawBufferPointer, into data: inout [UInt8], limit: Int) throws(Failure) {
        var index = bytes.startIndex
        while index < bytes.endIndex {
            switch state {
            case .size:
                guard try takeLine(bytes, from: &index, what: "chunk-size line") else { continue }
                let size = try Self.chunkSize(line)
                line.removeAll(keepingCapacity: true)
                if size == 0 {
                    state = .trailers
                } else {
                    // No reserveCapacity here: it grows to exactly what is asked, so one per chunk would copy the
                    // body again for every chunk; appending grows it geometrically.
                    guard data.count + size <= limit else { throw .tooLarge }
                    state = .data(remaining: size)
                }
            case .data(let remaining):
                let count = min(remaining, bytes.endIndex - index)
                data.append(contentsOf: bytes[index..<(index + count)])
                index += count
                state = remaining == count ? .dataEnd(sawCR: false) : .data(remaining: remaining - count)
            case .dataEnd(let sawCR):
                let byte = bytes[index]
                index += 1
                if byte == 0x0D, !sawCR {
                    state = .dataEnd(sawCR: true)
                } else if byte == 0x0A {
                    state = .size
                } else {
                    throw .malformed("a chunk's data is longer than its size says (no line end after it)")
                }
            case .trailers:
                let before = index
                let ended = try takeLine(bytes, from: &index, what: "trailer line")
                trailerBytes += index - before
                guard trailerBytes <= Self.maxTrailerBytes else {
                    throw .malformed("the trailer section is over \(Self.maxTrailerBytes) bytes")
                }
                guard ended else { continue }
                if line.isEmpty {
                    state = .complete
                } else {
                    line.removeAll(keepingCapacity: true)
                }
            case .complete:
                return
            }
        }
    }

    /// Adds bytes to ``line`` up to its LF, which it consumes; returns whether the line is whole (its CR, if any,
    /// dropped) rather than cut off by the end of `bytes`. Throws past ``maxLineBytes``.
    private mutating func takeLine(_ bytes: UnsafeRawBufferPointer, from index: inout Int, what: String)
        throws(Failure) -> Bool
    {
        while index < bytes.endIndex {
            let byte = bytes[index]
            index += 1
            if byte == 0x0A {
                if line.last == 0x0D { line.removeLast() }
                return true
            }
            line.append(byte)
            // One more than the limit: the CR before the LF.
            guard line.count <= Self.maxLineBytes + 1 else {
                throw .malformed("a \(what) is over \(Self.maxLineBytes) bytes")
            }
        }
        return false
    }

    /// The size a chunk-size line announces: hex digits, then optional white space and `;extensions`.
    private static func chunkSize(_ line: [UInt8]) throws(Failure) -> Int {
        var size = 0
        var digits = 0
        for byte in line {
            let value: Int
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = Int(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): value = Int(byte - UInt8(ascii: "a")) + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): value = Int(byte - UInt8(ascii: "A")) + 10
            case UInt8(ascii: ";"), UInt8(ascii: " "), UInt8(ascii: "\t"): return try finished(size, digits)
            default:
                let shown = String(decoding: line.prefix(40), as: UTF8.self)
                throw .malformed("a chunk size is not hexadecimal (\"\(shown)\")")
            }
            digits += 1
            // 15 hex digits always fit an Int; a size that long is refused by the limit anyway.
            guard digits <= 15 else { throw .tooLarge }
            size = size * 16 + value
        }
        return try finished(size, digits)
    }

    private static func finished(_ size: Int, _ digits: Int) throws(Failure) -> Int {
        guard digits > 0 else { throw .malformed("a chunk-size line has no size") }
        return size
    }
}
