/// Canonical printing (docs/store.md): names where the key allows it, quoted keys otherwise.
enum KeyPathPrinter {
    static func canonical(_ segments: [StoreKeyPath.Segment]) -> String {
        var out = ""
        for (offset, segment) in segments.enumerated() {
            switch segment {
            case .index(let i):
                out += "[\(i)]"
            case .key(let key):
                if isPlainName(key) {
                    if offset > 0 { out += "." }
                    out += key
                } else {
                    out += "[" + quoted(key) + "]"
                }
            }
        }
        return out
    }

    /// A key that the `name` production can spell.
    static func isPlainName(_ key: String) -> Bool {
        guard !key.isEmpty else { return false }
        // ASCII keys (nearly all) are checked byte by byte, without decoding scalars: log lines print a path per patch.
        // At the first non-ASCII byte the whole key is checked by scalars instead.
        for byte in key.utf8 {
            guard byte < 0x80 else { return key.unicodeScalars.allSatisfy(KeyPathParser.isNameScalar) }
            guard KeyPathParser.isNameScalar(Unicode.Scalar(byte)) else { return false }
        }
        return true
    }

    /// Appends `key` as a name (after a dot when `dotted`) when every byte is an ASCII name character that JSON
    /// needs no escape for, the common case, copied as one run; false, with nothing appended, otherwise (non-ASCII
    /// names, a `\` in a name, keys that must be quoted).
    static func appendASCIIName(_ key: String, dotted: Bool, to bytes: inout JSONBuffer) -> Bool {
        JSONEscaping.withUTF8(of: key) { utf8 in
            guard !utf8.isEmpty, utf8.allSatisfy(isUnescapedASCIINameByte) else { return false }
            if dotted { bytes.append(UInt8(ascii: ".")) }
            bytes.append(utf8)
            return true
        }
    }

    /// An ASCII byte that `isNameScalar` accepts and a JSON string holds as it is (not `\`).
    @inline(__always)
    private static func isUnescapedASCIINameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "."), UInt8(ascii: "["), UInt8(ascii: "\\"), UInt8(ascii: "]"): false
        case 0x21...0x7E: true
        default: false
        }
    }

    /// A JSON string that escapes only `"`, `\` and control characters.
    static func quoted(_ key: String) -> String {
        var out = "\""
        for scalar in key.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            default:
                if KeyPathParser.isControl(scalar) {
                    out += jsonEscape(scalar)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    private static func jsonEscape(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16)
        return "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}

extension StoreKeyPath {
    /// Appends the canonical form as a JSON string, quotes included (the bytes of
    /// `StoreValue.string(description).jsonBytes()`), without building the string first: log lines carry a path per
    /// patch, and encoding them is the inspector's hot path.
    public func appendJSONString(to bytes: inout JSONBuffer) {
        if parseError != nil {
            bytes.appendJSONString(description)
            return
        }
        bytes.append(UInt8(ascii: "\""))
        for (offset, segment) in segments.enumerated() {
            switch segment {
            case .index(let index):
                bytes.append(UInt8(ascii: "["))
                bytes.appendDecimal(index)
                bytes.append(UInt8(ascii: "]"))
            case .key(let key):
                if KeyPathPrinter.appendASCIIName(key, dotted: offset > 0, to: &bytes) { continue }
                if KeyPathPrinter.isPlainName(key) {
                    if offset > 0 { bytes.append(UInt8(ascii: ".")) }
                    JSONWriter.appendEscaped(key, to: &bytes)
                } else {
                    bytes.append(UInt8(ascii: "["))
                    JSONWriter.appendEscaped(KeyPathPrinter.quoted(key), to: &bytes)
                    bytes.append(UInt8(ascii: "]"))
                }
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
