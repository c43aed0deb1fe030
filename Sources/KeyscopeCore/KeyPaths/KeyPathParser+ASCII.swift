/// The fast path of the key-path parser: the common spellings, read from the UTF-8 bytes in place.
///
/// `store.set("cart.total", 100)` parses its literal on every call, so parsing is on the write path. The scalar
/// parser decodes the text into an array of scalars first and grows the segments one by one; this one reads the
/// bytes where they are and allocates only the segments (once, at their final size) and any key longer than a
/// small string.
///
/// It accepts a subset of the grammar and gives up (`nil`) on everything else: a byte that is not ASCII, an escape
/// or a control character in a quoted key, an index of 19 digits or more, and every error. The scalar parser then
/// reads the text from the start, so the language, the segments and the error columns are exactly its own. Within
/// the subset the two agree byte for byte: ASCII name bytes are those `isNameScalar` accepts below 0x80, a quoted
/// key without escapes is its bytes, an index without a leading zero is its decimal value.
extension KeyPathParser {
    static func parseASCII(_ text: String) -> [StoreKeyPath.Segment]? {
        // Native strings (every literal, every string built in Swift) are contiguous; others take the slow path.
        text.utf8.withContiguousStorageIfAvailable { bytes -> [StoreKeyPath.Segment]? in
            if isOneName(bytes) { return [.key(text)] }
            return parseASCII(bytes)
        } ?? nil
    }

    /// Whether the bytes are one name of ASCII name bytes (`theme`, `k12`, a new top-level key): the path is then
    /// `[.key(text)]`, the text itself being the key (kept rather than copied byte by byte into a new string).
    static func isOneName(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        !bytes.isEmpty && bytes.allSatisfy(isNameByte)
    }

    private static func parseASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> [StoreKeyPath.Segment]? {
        var segments: [StoreKeyPath.Segment] = []
        // One segment per `.` or `[` (more if a quoted key holds them), plus the first.
        segments.reserveCapacity(bytes.count(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "[") }) + 1)
        var position = 0
        while position < bytes.count {
            if bytes[position] == UInt8(ascii: "[") {
                position += 1
                guard position < bytes.count else { return nil }
                if bytes[position] == UInt8(ascii: "\"") {
                    guard let key = quotedKey(bytes, &position) else { return nil }
                    segments.append(.key(key))
                } else {
                    guard let index = index(bytes, &position) else { return nil }
                    segments.append(.index(index))
                }
                guard position < bytes.count, bytes[position] == UInt8(ascii: "]") else { return nil }
                position += 1
            } else {
                if !segments.isEmpty {
                    guard bytes[position] == UInt8(ascii: ".") else { return nil }
                    position += 1
                }
                let start = position
                while position < bytes.count, isNameByte(bytes[position]) { position += 1 }
                guard position > start else { return nil }
                segments.append(.key(string(bytes, start..<position)))
            }
        }
        return segments
    }

    /// An ASCII byte that `isNameScalar` accepts: printable, not space, `.`, `[`, `]` or `"`.
    @inline(__always)
    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "."), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "\""): false
        case 0x21...0x7E: true
        default: false
        }
    }

    /// `"…"` at `position` with printable ASCII and no `\` inside; leaves `position` after the closing quote.
    private static func quotedKey(_ bytes: UnsafeBufferPointer<UInt8>, _ position: inout Int) -> String? {
        position += 1  // the opening quote
        let start = position
        while position < bytes.count, bytes[position] != UInt8(ascii: "\"") {
            guard (0x20...0x7E).contains(bytes[position]), bytes[position] != UInt8(ascii: "\\") else { return nil }
            position += 1
        }
        guard position < bytes.count else { return nil }
        defer { position += 1 }
        return string(bytes, start..<position)
    }

    /// Decimal digits without a leading zero, at most 18 of them (so no overflow to check).
    private static func index(_ bytes: UnsafeBufferPointer<UInt8>, _ position: inout Int) -> Int? {
        let start = position
        var value: Int64 = 0
        while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) {
            guard position - start < 18 else { return nil }
            value = value * 10 + Int64(bytes[position] - UInt8(ascii: "0"))
            position += 1
        }
        guard position > start, position - start == 1 || bytes[start] != UInt8(ascii: "0") else { return nil }
        return Int(value)
    }

    /// The bytes `range` as a string (made in place: cheaper than decoding them, which goes through a repairing
    /// decoder first).
    private static func string(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        String(unsafeUninitializedCapacity: range.count) { buffer in
            _ = buffer.initialize(from: bytes[range])
            return range.count
        }
    }
}
