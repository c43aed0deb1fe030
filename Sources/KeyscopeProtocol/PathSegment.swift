/// One percent-encoded path segment of the routes that carry names in their path (`/tune/:key/:value`,
/// `/api/preferences/:source/:container/:key`): decoding with the checks both share.
package enum PathSegment {
    /// Decodes `segment` once. `advice` ends the control-character message: where such a name can be sent instead.
    ///
    /// - Throws: `bad_request` for a `%` not followed by two hex digits, for bytes that are not UTF-8, and for a
    ///   control character; the message names the segment.
    package static func decode(_ segment: some StringProtocol, controlCharacterAdvice advice: String) throws(HubError)
        -> String
    {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(segment.utf8.count)
        var iterator = segment.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                throw .badRequest(
                    "the path segment \"\(segment)\" has a bad percent escape: % must be followed by two hex digits "
                        + "(write a % itself as %25)")
            }
            bytes.append(high << 4 | low)
        }
        let text = String(decoding: bytes, as: UTF8.self)
        guard text.utf8.elementsEqual(bytes) else {  // invalid UTF-8 was replaced while decoding
            throw .badRequest("the path segment \"\(segment)\" does not decode to UTF-8 text")
        }
        if text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            throw .badRequest(
                "the path segment \"\(segment)\" decodes to a control character, which a path cannot carry; "
                    + advice)
        }
        return text
    }

    /// The value of one hex digit (either case), `nil` for any other byte.
    package static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
