import FuzzSupport
import KeyscopeCodec
import KeyscopeCore

/// `JanssonCodec` on any bytes, read as each thing it decodes: a value, a patch, a log line, a recording header, a
/// request's members. Properties (docs/store.md, docs/recording.md, the codec's documentation):
/// - it accepts exactly the texts the core's own reader (`StoreValue(jsonBytes:)`) accepts, with equal values;
/// - a decoded value encodes to the core's canonical bytes, which decode to the same value and encode to
///   themselves;
/// - the depth limit is exact on both sides: text nested `d` deep decodes with `maxDepth: d` and is refused
///   (`too_deep`) with `d - 1`; a value whose canonical form nests `d` deep encodes with `d`, not with `d - 1`;
/// - a decoded patch, log line or header encodes to bytes that decode to the same thing.
@main
enum CodecFuzzer {
    static func main() {
        FuzzDriver.run { bytes in
            checkValue(bytes)
            checkPatch(bytes)
            checkLogLine(bytes)
            checkHeader(bytes)
            _ = try? JanssonCodec.decodeMembers(bytes)
        }
    }

    static func checkValue(_ bytes: UnsafeBufferPointer<UInt8>) {
        let jansson = Result { () throws(JanssonCodecError) in try JanssonCodec.decode(bytes) }
        let core = Result { () throws(StoreValueJSONError) in try StoreValue(jsonBytes: bytes) }
        switch (jansson, core) {
        case (.success(let value), .success(let other)):
            FuzzCheck.expect(value == other, "jansson read \(value), the core read \(other)")
            checkEncoding(value)
            checkInputDepth(bytes, value)
        case (.failure, .failure):
            break
        case (.success(let value), .failure(let error)):
            FuzzCheck.expect(false, "jansson read \(value), the core refused it: \(error)")
        case (.failure(let error), .success(let value)):
            FuzzCheck.expect(false, "the core read \(value), jansson refused it: \(error)")
        }
    }

    static func checkEncoding(_ value: StoreValue) {
        let bytes = FuzzCheck.success("encoding \(value)") { try JanssonCodec.encode(value) }
        let canonical = value.jsonBytes(sortedKeys: true)
        FuzzCheck.expect(
            bytes == canonical,
            "jansson wrote \(text(bytes)), the core \(text(canonical))")
        let back = FuzzCheck.success("decoding the encoding \(text(bytes))") { try JanssonCodec.decode(bytes) }
        FuzzCheck.expect(back == value, "\(text(bytes)) decodes to \(back), not \(value)")
        let again = FuzzCheck.success("encoding \(back)") { try JanssonCodec.encode(back) }
        FuzzCheck.expect(again == bytes, "the canonical form is not a fixed point: \(text(again))")
        let depth = JSONNesting.depth(bytes)
        FuzzCheck.expect(
            (try? JanssonCodec.encode(value, maxDepth: depth)) == bytes, "encoding \(text(bytes)) at depth \(depth)")
        if depth > 0 {
            expectTooDeep("encoding \(text(bytes)) with maxDepth \(depth - 1)") { () throws(JanssonCodecError) in
                try JanssonCodec.encode(value, maxDepth: depth - 1)
            }
        }
    }

    static func checkInputDepth(_ bytes: UnsafeBufferPointer<UInt8>, _ value: StoreValue) {
        let depth = JSONNesting.depth(bytes)
        let atDepth = Result { () throws(JanssonCodecError) in try JanssonCodec.decode(bytes, maxDepth: depth) }
        FuzzCheck.expect((try? atDepth.get()) == value, "input nested \(depth) deep refused with maxDepth \(depth)")
        if depth > 0 {
            expectTooDeep("decoding input nested \(depth) deep with maxDepth \(depth - 1)") {
                () throws(JanssonCodecError) in
                try JanssonCodec.decode(bytes, maxDepth: depth - 1)
            }
        }
    }

    static func checkPatch(_ bytes: UnsafeBufferPointer<UInt8>) {
        checkRoundTrip(
            "the patch", bytes, decode: { try JanssonCodec.decodePatch($0) }, encode: { try JanssonCodec.encode($0) },
            canonical: { $0.jsonObject.jsonBytes(sortedKeys: true) })
    }

    static func checkLogLine(_ bytes: UnsafeBufferPointer<UInt8>) {
        checkRoundTrip(
            "the log line", bytes, decode: { try JanssonCodec.decodeLogEntry($0) },
            encode: { try JanssonCodec.encode($0) })
    }

    static func checkHeader(_ bytes: UnsafeBufferPointer<UInt8>) {
        checkRoundTrip(
            "the header", bytes, decode: { try JanssonCodec.decodeRecordingHeader($0) },
            encode: { try JanssonCodec.encode($0) })
    }

    /// When `bytes` decode as `what`, its encoding must decode to the same thing (and be `canonical`'s bytes for it,
    /// when given); bytes that do not decode are not its concern.
    static func checkRoundTrip<T: Equatable>(
        _ what: String, _ bytes: UnsafeBufferPointer<UInt8>, decode: (UnsafeBufferPointer<UInt8>) throws -> T,
        encode: (T) throws -> [UInt8], canonical: ((T) -> [UInt8])? = nil
    ) {
        guard let decoded = try? decode(bytes) else { return }
        let encoded = FuzzCheck.success("encoding \(what) \(decoded)") { try encode(decoded) }
        if let canonical {
            FuzzCheck.expect(encoded == canonical(decoded), "\(what) encodes as \(text(encoded))")
        }
        let back = FuzzCheck.success("decoding \(what) \(text(encoded))") {
            try encoded.withUnsafeBufferPointer { try decode($0) }
        }
        FuzzCheck.expect(back == decoded, "\(text(encoded)) decodes to \(back), not \(decoded)")
    }

    static func expectTooDeep<T>(_ what: String, _ body: () throws(JanssonCodecError) -> T) {
        do {
            _ = try body()
            FuzzCheck.expect(false, "\(what) succeeded")
        } catch {
            FuzzCheck.expect(error.code == .tooDeep, "\(what) failed with \(error), not too_deep")
        }
    }

    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
}
