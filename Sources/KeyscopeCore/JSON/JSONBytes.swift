public import Foundation

/// Appending literal JSON text to an array of bytes, for messages assembled from parts already encoded (the hub's
/// `changes` frames). Encoders that write many small pieces use ``JSONBuffer`` instead.
///
/// ```swift
/// var frame: [UInt8] = []
/// JSONBytes.appendLiteral(#"{"type":"changes","entries":["#, to: &frame)
/// ```
public enum JSONBytes {
    /// Appends text known when compiling (a literal) as one copy of its UTF-8 bytes.
    @inlinable
    public static func appendLiteral(_ text: StaticString, to bytes: inout [UInt8]) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }
}
