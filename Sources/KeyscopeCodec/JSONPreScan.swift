/// One pass over JSON bytes before jansson parses them.
///
/// 1. **Depth.** It counts `[` and `{` (skipping strings) and refuses text nested deeper than the limit, so that
///    jansson never meets input past its own `JSON_PARSER_MAX_DEPTH` and the error names Keyscope's limit. For valid
///    JSON the count is exactly the nesting the core's reader counts, so both accept the same texts.
/// 2. **Raw NUL bytes.** They are never valid JSON, but jansson 2.14 loses one that directly follows a number or a
///    literal (its stream takes the pushed-back NUL for the end of its buffer), so `[1<NUL>]` and `true<NUL>` would
///    parse. The scan refuses any NUL byte.
/// 3. **`\u0000` in keys.** jansson keeps NUL inside strings (`JSON_ALLOW_NUL`) and its objects accept keys with
///    NUL (`json_object_setn`), but its parser refuses `"a\u0000b"` as a *key* ("NUL byte in object key not
///    supported"), which the core reads. When some key holds a `\u0000` escape, the scan finds every `\u0000` and
///    `\u0001` escape inside keys so that ``rewritten(_:)`` can replace them, before parsing, by an injective
///    spelling without NUL (`\u0000` → `\u0001\u0001`, `\u0001` → `\u0001\u0002`, both only in keys); the reader
///    maps the keys back with ``restoreKeyControls(_:)``. Raw control bytes cannot be in valid JSON strings, so
///    U+0000 and U+0001 in keys come only from these escapes and the mapping loses nothing. Texts without a NUL
///    key (nearly all) are parsed as they are.
struct JSONPreScan {
    /// A `\u0000` or `\u0001` escape inside an object key.
    struct KeyEscape {
        /// Byte offset of its backslash in the original text.
        let offset: Int
        let isNUL: Bool
        /// 1-based line, to correct jansson's column in error reports.
        let line: Int
    }

    /// The key escapes to rewrite; empty when no key holds `\u0000` (then the text is parsed unchanged).
    private(set) var keyEscapes: [KeyEscape] = []

    /// Each rewrite lengthens the text by this many bytes (six-byte escape → twelve).
    static let growth = 6

    /// Scans `bytes`, refusing nesting deeper than `limit`.
    init(_ bytes: UnsafeBufferPointer<UInt8>, limit: Int) throws(JanssonCodecError) {
        var depth = 0
        var line = 1
        var index = 0
        var pending: [KeyEscape] = []
        var keyHasNUL = false
        let count = bytes.count
        while index < count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                while index < count {
                    let inner = bytes[index]
                    if inner == UInt8(ascii: "\"") { break }
                    if inner == UInt8(ascii: "\\") {
                        if index + 5 < count, bytes[index + 1] == UInt8(ascii: "u"), bytes[index + 2] == 0x30,
                            bytes[index + 3] == 0x30, bytes[index + 4] == 0x30,
                            bytes[index + 5] == 0x30 || bytes[index + 5] == 0x31
                        {
                            pending.append(KeyEscape(offset: index, isNUL: bytes[index + 5] == 0x30, line: line))
                            index += 6
                        } else {
                            if index + 1 < count, bytes[index + 1] == 0 { throw .nulByte(at: index + 1) }
                            index += 2
                        }
                        continue
                    }
                    if inner == 0x0A { line += 1 }
                    if inner == 0 { throw .nulByte(at: index) }
                    index += 1
                }
                index += 1
                if !pending.isEmpty {
                    if Self.colonFollows(bytes, from: index) {
                        keyHasNUL = keyHasNUL || pending.contains(where: \.isNUL)
                        keyEscapes.append(contentsOf: pending)
                    }
                    pending.removeAll(keepingCapacity: true)
                }
                continue
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                if depth > limit { throw .tooDeep(limit: limit, at: index) }
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                depth -= 1
            case 0x0A:
                line += 1
            case 0:
                throw .nulByte(at: index)
            default:
                break
            }
            index += 1
        }
        if !keyHasNUL { keyEscapes.removeAll() }
    }

    /// Whether the next byte after JSON whitespace is `:`, which makes the string just read an object key.
    private static func colonFollows(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Bool {
        var index = start
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            case UInt8(ascii: ":"): return true
            default: return false
            }
        }
        return false
    }

    /// Whether the text must be parsed as ``rewritten(_:)`` and its keys restored.
    var rewritesKeys: Bool { !keyEscapes.isEmpty }

    /// The text with the key escapes replaced (see the type's documentation).
    func rewritten(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + keyEscapes.count * Self.growth)
        var copied = 0
        for escape in keyEscapes {
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<escape.offset]))
            out.append(contentsOf: #"\u0001\u000"#.utf8)
            out.append(escape.isNUL ? 0x31 : 0x32)
            copied = escape.offset + 6
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied...]))
        return out
    }

    /// Maps a jansson error location in the rewritten text back to the original text.
    func originalLocation(line: Int, column: Int, position: Int) -> (column: Int, position: Int) {
        var shift = 0
        var columnShift = 0
        for (number, escape) in keyEscapes.enumerated() {
            // Where this escape's twelve-byte replacement ends in the rewritten text.
            guard escape.offset + number * Self.growth + 12 <= position else { break }
            shift += Self.growth
            if escape.line == line { columnShift += Self.growth }
        }
        return (column - columnShift, position - shift)
    }

    /// Undoes the key rewrite on one decoded key: U+0001 U+0001 → U+0000, U+0001 U+0002 → U+0001.
    static func restoreKeyControls(_ key: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(key.count)
        var index = 0
        while index < key.count {
            if key[index] == 0x01, index + 1 < key.count {
                out.append(key[index + 1] == 0x01 ? 0x00 : 0x01)
                index += 2
            } else {
                out.append(key[index])
                index += 1
            }
        }
        return out
    }
}

extension JanssonCodecError {
    static func nulByte(at position: Int) -> JanssonCodecError {
        JanssonCodecError(.syntax, "a NUL byte is not JSON (inside a string, write it as \\u0000)", position: position)
    }
}
