/// Canonical printing (VALUES.md): names where the key allows it, quoted keys otherwise.
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
    /// Appends the canonical form as a JSON string, quotes included: the bytes of
    /// `StoreValue.string(description).jsonBytes()`, without building the string first (log lines carry a path per
    /// patch, and encoding them is the inspector's hot path).
    public func appendJSONString(to bytes: inout [UInt8]) {
        if parseError != nil {
            StoreValue.string(description).appendJSON(to: &bytes)
            return
        }
        bytes.append(UInt8(ascii: "\""))
        for (offset, segment) in segments.enumerated() {
            switch segment {
            case .index(let index):
                bytes.append(UInt8(ascii: "["))
                JSONWriter.appendDecimal(index, to: &bytes)
                bytes.append(UInt8(ascii: "]"))
            case .key(let key) where KeyPathPrinter.isPlainName(key):
                if offset > 0 { bytes.append(UInt8(ascii: ".")) }
                JSONWriter.appendEscaped(key, to: &bytes)
            case .key(let key):
                bytes.append(UInt8(ascii: "["))
                JSONWriter.appendEscaped(KeyPathPrinter.quoted(key), to: &bytes)
                bytes.append(UInt8(ascii: "]"))
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
