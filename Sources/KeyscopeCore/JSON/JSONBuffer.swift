public import Foundation

/// A growable byte buffer for JSON encoders on a hot path (the inspector's log lines): an append is a capacity
/// check and a store through a pointer.
///
/// `[UInt8].append(contentsOf:)` pays a uniqueness check and a generic copy for every piece, and a log line is some
/// thirty pieces of a few bytes. A buffer starts in stack memory lent by ``withScratch(capacity:_:)`` and moves to
/// the heap only when it outgrows it; ``bytes`` copies the result into an array of exactly its size.
///
/// ```swift
/// let line: [UInt8] = JSONBuffer.withScratch { buffer in
///     buffer.append(#"{"seq":"#)
///     buffer.appendDecimal(42)
///     buffer.append(UInt8(ascii: "}"))
///     return buffer.bytes                  // {"seq":42}
/// }
/// ```
public struct JSONBuffer: ~Copyable {
    @usableFromInline var base: UnsafeMutablePointer<UInt8>
    @usableFromInline var written: Int
    @usableFromInline var capacity: Int
    /// Whether `base` is this buffer's heap memory (freed by it) rather than the scratch memory it was lent.
    @usableFromInline var ownsMemory: Bool

    /// The number of bytes written so far.
    public var count: Int { written }

    @usableFromInline
    init(lending storage: UnsafeMutableBufferPointer<UInt8>) {
        base = storage.baseAddress!
        written = 0
        capacity = storage.count
        ownsMemory = false
    }

    deinit { if ownsMemory { base.deallocate() } }

    /// Calls `body` with an empty buffer whose first `capacity` bytes are on the stack; the buffer lives only during
    /// the call, so `body` returns what it made of it (``bytes``, a count, …).
    @inlinable
    public static func withScratch<Result>(capacity: Int = 1024, _ body: (inout JSONBuffer) throws -> Result) rethrows
        -> Result
    {
        try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(capacity, 16)) { storage in
            var buffer = JSONBuffer(lending: storage)
            return try body(&buffer)
        }
    }

    /// The bytes written, as an array of exactly their count.
    public var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: written)) }

    /// The bytes written, as `Data`.
    public var data: Data { Data(bytes: base, count: written) }

    /// Appends one byte.
    @inlinable @inline(__always)
    public mutating func append(_ byte: UInt8) {
        if written == capacity { grow(toHold: written + 1) }
        base[written] = byte
        written += 1
    }

    /// Appends `bytes` in one copy.
    @inlinable @inline(__always)
    public mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress else { return }
        let length = bytes.count
        if capacity - written < length { grow(toHold: written + length) }
        (base + written).initialize(from: source, count: length)
        written += length
    }

    /// Appends text known when compiling (a literal) as one copy of its UTF-8 bytes.
    @inlinable @inline(__always)
    public mutating func append(_ literal: StaticString) {
        literal.withUTF8Buffer { append($0) }
    }

    /// Appends the bytes of an array.
    @inlinable
    public mutating func append(contentsOf bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append($0) }
    }

    /// Makes room for `length` more bytes and returns where they start, for a writer of a known width (digits, a
    /// date) that fills them itself; they count as written at once, so the caller must set every one of them.
    @inlinable @inline(__always)
    public mutating func appendUninitialized(_ length: Int) -> UnsafeMutablePointer<UInt8> {
        if capacity - written < length { grow(toHold: written + length) }
        let start = base + written
        written += length
        return start
    }

    /// Appends `value` in decimal, as `String(value)` spells it.
    public mutating func appendDecimal(_ value: Int) { appendDecimal(Int64(value)) }

    /// Appends `value` in decimal, as `String(value)` spells it.
    public mutating func appendDecimal(_ value: Int64) {
        if value < 0 { append(UInt8(ascii: "-")) }
        var rest = value.magnitude
        var digits = 1
        var bound: UInt64 = 10
        // Counted first so the digits are written in place, right to left; 10¹⁹ is UInt64's largest power of ten.
        while digits < 20, rest >= bound {
            digits += 1
            if digits < 20 { bound &*= 10 }
        }
        let start = appendUninitialized(digits)
        for position in stride(from: digits - 1, through: 0, by: -1) {
            start[position] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
            rest /= 10
        }
    }

    /// Appends `text` as a JSON string, quotes included, escaped as ``StoreValue/jsonBytes(sortedKeys:)`` escapes it.
    public mutating func appendJSONString(_ text: String) { JSONWriter.writeString(text, to: &self) }

    /// Appends the 36 characters of `uuid` in lower case (`uuidString.lowercased()`), without quotes.
    public mutating func appendLowercased(_ uuid: UUID) {
        let start = appendUninitialized(36)
        var position = 0
        Swift.withUnsafeBytes(of: uuid.uuid) { raw in
            for (index, byte) in raw.enumerated() {
                if index == 4 || index == 6 || index == 8 || index == 10 {
                    start[position] = UInt8(ascii: "-")
                    position += 1
                }
                start[position] = Self.hexDigit(byte >> 4)
                start[position + 1] = Self.hexDigit(byte & 0x0F)
                position += 2
            }
        }
    }

    @inline(__always)
    static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }

    /// Moves to heap memory of at least `needed` bytes (at least double the current), keeping what was written.
    @usableFromInline @inline(never)
    mutating func grow(toHold needed: Int) {
        let newCapacity = Swift.max(needed, capacity * 2, 64)
        let memory = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        memory.initialize(from: base, count: written)
        if ownsMemory { base.deallocate() }
        base = memory
        capacity = newCapacity
        ownsMemory = true
    }
}
