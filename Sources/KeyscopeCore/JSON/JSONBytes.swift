public import Foundation

/// Appending pieces of JSON text straight to a byte buffer, for encoders on a hot path (the inspector's log lines):
/// no `String` is made on the way.
///
/// ```swift
/// var line: [UInt8] = []
/// JSONBytes.appendLiteral(#"{"seq":"#, to: &line)
/// JSONBytes.appendDecimal(42, to: &line)
/// JSONBytes.appendLiteral("}", to: &line)      // {"seq":42}
/// ```
public enum JSONBytes {
    /// Appends text known when compiling (a literal) as one copy of its UTF-8 bytes.
    @inlinable
    public static func appendLiteral(_ text: StaticString, to bytes: inout [UInt8]) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Appends `value` in decimal, as `String(value)` spells it.
    public static func appendDecimal(_ value: Int, to bytes: inout [UInt8]) {
        JSONBuffer.withScratch(capacity: 24) { buffer in
            buffer.appendDecimal(value)
            buffer.withUnsafeBytes { bytes.append(contentsOf: $0) }
        }
    }

    /// Appends the 36 characters of `uuid` in lower case (`uuidString.lowercased()`), without the quotes.
    public static func appendLowercased(_ uuid: UUID, to bytes: inout [UInt8]) {
        JSONBuffer.withScratch(capacity: 36) { buffer in
            buffer.appendLowercased(uuid)
            buffer.withUnsafeBytes { bytes.append(contentsOf: $0) }
        }
    }
}
