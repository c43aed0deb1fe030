/// The nesting of JSON text: the most `[` and `{` open at once outside strings (`[[1],{}]` is 2, `3` is 0). A
/// second count, independent of the codec's pre-scan, for checking depth limits on text that is valid JSON.
///
/// ```swift
/// JSONNesting.depth(Array(#"{"a":[1,"]"]}"#.utf8))   // 2
/// ```
public enum JSONNesting {
    public static func depth(_ bytes: some Collection<UInt8>) -> Int {
        var depth = 0
        var deepest = 0
        var inString = false
        var escaped = false
        for byte in bytes {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                deepest = max(deepest, depth)
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
        }
        return deepest
    }
}
