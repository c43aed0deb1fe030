import CJansson

/// Writes a jansson tree as compact JSON with sorted keys, byte for byte the core's `jsonText(sortedKeys: true)`.
///
/// Why not `json_dumpb(JSON_COMPACT | JSON_SORT_KEYS)`: jansson writes reals with `%.17g` (or a fixed
/// `JSON_REAL_PRECISION`), so `0.42` comes out as `0.41999999999999998` and `1e300` as `1.0000000000000001e300`;
/// and it escapes other control characters in upper case (`\u001F`, the core writes `\u001f`). `json_dump_callback`
/// uses the same formatter, and jansson has no hook for writing reals. So this walks the tree itself:
/// - reals as Swift's `Double.description`, the shortest text that reads back to the same double, always with `.`
///   or an exponent (`0.42`, `3.0`, `1e+300`, `5e-324`), which is what the core writes;
/// - integers in plain decimal;
/// - strings with `"` and `\` escaped, `\b \t \n \f \r` short, other characters below U+0020 as lower-case
///   `\u00xx`, and everything else as raw UTF-8 (`/`, DEL, U+2028 included);
/// - object keys in UTF-8 byte order (shorter first on a common prefix), which is code-point order and the core's.
///
/// It writes what the tree holds: tagged values and `$`-escaped keys are already in it (``JanssonBuilder``).
struct JanssonWriter {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 256) {
        bytes.reserveCapacity(capacity)
    }

    mutating func write(_ json: UnsafeMutablePointer<json_t>) {
        switch kjs_typeof(json) {
        case JSON_OBJECT:
            writeObject(json)
        case JSON_ARRAY:
            bytes.append(UInt8(ascii: "["))
            for index in 0..<json_array_size(json) {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                if let element = json_array_get(json, index) { write(element) }
            }
            bytes.append(UInt8(ascii: "]"))
        case JSON_STRING:
            let start = UnsafeRawPointer(json_string_value(json))
            writeString(UnsafeRawBufferPointer(start: start, count: json_string_length(json)))
        case JSON_INTEGER:
            writeInteger(Int64(json_integer_value(json)))
        case JSON_REAL:
            // The shortest round-trip form; the core writes exactly this (`JSONWriter.writeNumber`).
            bytes.append(contentsOf: json_real_value(json).description.utf8)
        case JSON_TRUE:
            bytes.append(contentsOf: "true".utf8)
        case JSON_FALSE:
            bytes.append(contentsOf: "false".utf8)
        default:
            bytes.append(contentsOf: "null".utf8)
        }
    }

    /// One object member: its key bytes and its value.
    private struct Member {
        let key: UnsafeRawBufferPointer
        let value: UnsafeMutablePointer<json_t>

        static func precedes(_ a: Member, _ b: Member) -> Bool {
            a.key.lexicographicallyPrecedes(b.key)
        }
    }

    private mutating func writeObject(_ json: UnsafeMutablePointer<json_t>) {
        let count = json_object_size(json)
        bytes.append(UInt8(ascii: "{"))
        withUnsafeTemporaryAllocation(of: Member.self, capacity: count) { members in
            var filled = 0
            var iterator = json_object_iter(json)
            while let current = iterator, filled < count {
                if let key = json_object_iter_key(current), let value = json_object_iter_value(current) {
                    let keyBytes = UnsafeRawBufferPointer(start: key, count: json_object_iter_key_len(current))
                    members.initializeElement(at: filled, to: Member(key: keyBytes, value: value))
                    filled += 1
                }
                iterator = json_object_iter_next(json, current)
            }
            let sorted = UnsafeMutableBufferPointer(rebasing: members[0..<filled])
            Self.sort(sorted)
            for (offset, member) in sorted.enumerated() {
                if offset > 0 { bytes.append(UInt8(ascii: ",")) }
                writeString(member.key)
                bytes.append(UInt8(ascii: ":"))
                write(member.value)
            }
            // `Member` is a trivial type: nothing to deinitialize.
        }
        bytes.append(UInt8(ascii: "}"))
    }

    /// Insertion sort for the usual handful of keys (no allocation, linear when already sorted), else the
    /// standard sort.
    private static func sort(_ members: UnsafeMutableBufferPointer<Member>) {
        guard members.count > 1 else { return }
        guard members.count <= 16 else {
            var members = members
            members.sort(by: Member.precedes)
            return
        }
        for index in 1..<members.count {
            let member = members[index]
            var hole = index
            while hole > 0, Member.precedes(member, members[hole - 1]) {
                members[hole] = members[hole - 1]
                hole -= 1
            }
            members[hole] = member
        }
    }

    private mutating func writeInteger(_ integer: Int64) {
        if integer < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = integer.magnitude
        let start = bytes.count
        repeat {
            bytes.append(0x30 + UInt8(truncatingIfNeeded: magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        bytes[start...].reverse()
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// A JSON string with exactly the core writer's escapes; copies unescaped runs in one go.
    private mutating func writeString(_ text: UnsafeRawBufferPointer) {
        bytes.append(UInt8(ascii: "\""))
        var runStart = 0
        for index in 0..<text.count {
            let byte = text[index]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
            if runStart < index { bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: text[runStart..<index])) }
            runStart = index + 1
            bytes.append(UInt8(ascii: "\\"))
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
            case 0x0A: bytes.append(UInt8(ascii: "n"))
            case 0x0D: bytes.append(UInt8(ascii: "r"))
            case 0x09: bytes.append(UInt8(ascii: "t"))
            case 0x08: bytes.append(UInt8(ascii: "b"))
            case 0x0C: bytes.append(UInt8(ascii: "f"))
            default:
                bytes.append(contentsOf: [UInt8(ascii: "u"), 0x30, 0x30])
                bytes.append(Self.hexDigits[Int(byte >> 4)])
                bytes.append(Self.hexDigits[Int(byte & 0xF)])
            }
        }
        if runStart < text.count { bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: text[runStart...])) }
        bytes.append(UInt8(ascii: "\""))
    }
}
