public import Foundation

extension StoreValue {
    /// Decodes JSON text per VALUES.md: tagged values, `$`-unescaping, integers vs numbers.
    ///
    /// Rejects (never rounds or replaces) integers outside Int64, overflowing number literals, duplicate keys,
    /// lone surrogate escapes, invalid UTF-8, bad tagged payloads and nesting deeper than `maxDepth`.
    /// ```swift
    /// let v = try StoreValue(jsonText: #"{"total": 3, "ratio": 3.0, "accent": {"$color": "#FF8800"}}"#)
    /// ```
    public init(jsonText: String, maxDepth: Int = JSONLimits.defaultMaxDepth) throws(StoreValueJSONError) {
        var text = jsonText
        self = try text.withUTF8 { bytes in
            var reader = JSONReader(bytes: bytes, maxDepth: maxDepth)
            return Result { () throws(StoreValueJSONError) in try reader.readDocument() }
        }.get()
    }

    /// Decodes UTF-8 JSON bytes; see ``init(jsonText:maxDepth:)``.
    public init(jsonData: Data, maxDepth: Int = JSONLimits.defaultMaxDepth) throws(StoreValueJSONError) {
        self = try jsonData.withUnsafeBytes { raw in
            var reader = JSONReader(bytes: raw.bindMemory(to: UInt8.self), maxDepth: maxDepth)
            return Result { () throws(StoreValueJSONError) in try reader.readDocument() }
        }.get()
    }

    /// Decodes UTF-8 JSON bytes; see ``init(jsonText:maxDepth:)``.
    public init(jsonBytes: some Collection<UInt8>, maxDepth: Int = JSONLimits.defaultMaxDepth)
        throws(StoreValueJSONError)
    {
        let array = Array(jsonBytes)
        self = try array.withUnsafeBufferPointer { bytes in
            var reader = JSONReader(bytes: bytes, maxDepth: maxDepth)
            return Result { () throws(StoreValueJSONError) in try reader.readDocument() }
        }.get()
    }

    /// Reads the one JSON value that starts at `offset` in `bytes` (whitespace before it is skipped) and moves
    /// `offset` just past it: for decoders of larger documents (a log line) that take their values from this reader.
    /// The rules are those of ``init(jsonText:maxDepth:)``; what follows the value is the caller's to read.
    ///
    /// ```swift
    /// var offset = 8                                    // in {"total":[1,2.5]}, at the "["
    /// let value = try StoreValue.readJSON(from: bytes, at: &offset)   // [1, 2.5]; offset is 17, at the "}"
    /// ```
    public static func readJSON(
        from bytes: UnsafeBufferPointer<UInt8>, at offset: inout Int, maxDepth: Int = JSONLimits.defaultMaxDepth
    ) throws(StoreValueJSONError) -> StoreValue {
        var reader = JSONReader(bytes: bytes, maxDepth: maxDepth, position: offset)
        let value = try reader.readEmbeddedValue()
        offset = reader.position
        return value
    }

    /// The compact JSON form. `sortedKeys` gives a stable byte-for-byte output (files, fixtures, digests).
    public func jsonText(sortedKeys: Bool = false) -> String {
        String(decoding: jsonBytes(sortedKeys: sortedKeys), as: UTF8.self)
    }

    /// The compact JSON form as UTF-8 bytes.
    public func jsonBytes(sortedKeys: Bool = false) -> [UInt8] {
        JSONBuffer.withScratch { buffer in
            appendJSON(to: &buffer, sortedKeys: sortedKeys)
            return buffer.bytes
        }
    }

    /// Appends the compact JSON form to `buffer`: for writers that assemble larger documents (log lines, messages)
    /// without an intermediate array per value.
    public func appendJSON(to buffer: inout JSONBuffer, sortedKeys: Bool = false) {
        var writer = JSONWriter(sortedKeys: sortedKeys)
        writer.write(self, to: &buffer)
    }

    /// The JSON form as `Data`, optionally pretty-printed (two-space indent, sorted keys) for files people read.
    public func jsonData(pretty: Bool = false) -> Data {
        JSONBuffer.withScratch { buffer in
            var writer = JSONWriter(sortedKeys: pretty, pretty: pretty)
            writer.write(self, to: &buffer)
            if pretty { buffer.append(UInt8(ascii: "\n")) }
            return buffer.data
        }
    }
}

/// Limits shared by every JSON reader in Keyscope.
public enum JSONLimits {
    /// Arrays and objects nested deeper than this are refused (a guard against stack exhaustion).
    public static let defaultMaxDepth = 512
}

/// Why JSON text is not a valid StoreValue, with the byte offset where reading stopped.
public struct StoreValueJSONError: Error, Sendable, Hashable, CustomStringConvertible {
    /// 0-based byte offset into the input.
    public let offset: Int
    /// What was wrong, in words a person can act on.
    public let reason: String

    public init(offset: Int, reason: String) {
        self.offset = offset
        self.reason = reason
    }

    public var description: String { "invalid JSON at byte \(offset): \(reason)" }
}
