import CJansson
public import KeyscopeCore

/// StoreValues, patches and log lines to and from JSON through jansson, byte for byte the core's JSON form.
///
/// - Encoding gives compact JSON with sorted keys: exactly `value.jsonText(sortedKeys: true)` of KeyscopeCore.
/// - Decoding parses with jansson (`json_loadb` with `JSON_REJECT_DUPLICATES | JSON_DECODE_ANY | JSON_ALLOW_NUL`)
///   and applies docs/store.md; it accepts exactly the texts `StoreValue(jsonText:)` accepts, with equal values.
/// - Input nested deeper than `maxDepth` is refused by a pre-scan before jansson sees it, and output is never built
///   deeper than `maxDepth`. A `maxDepth` above ``depthCeiling`` (jansson's own parser limit) counts as the ceiling.
/// - A raw NUL byte anywhere is refused by the pre-scan too (jansson 2.14 drops one that follows a number or a
///   literal, accepting `[1<NUL>]`).
///
/// Every call is independent and thread-safe: the jansson values it makes live only inside the call, on the calling
/// thread, and each is released exactly once.
///
/// ```swift
/// let value: StoreValue = ["ratio": 0.42, "accent": .color(StoreColor("#FF8800")!)]
/// let bytes = try JanssonCodec.encode(value)     // {"accent":{"$color":"#FF8800"},"ratio":0.42}
/// let back = try JanssonCodec.decode(bytes)      // == value
/// ```
public enum JanssonCodec {
    /// The jansson version this build links, e.g. `2.14`.
    public static var janssonVersion: String { String(cString: jansson_version_str()) }

    /// The deepest nesting of arrays and objects jansson's parser takes, 2047: it counts every value, scalars
    /// included, against its `JSON_PARSER_MAX_DEPTH` of 2048. Larger `maxDepth` arguments are lowered to it.
    public static let depthCeiling = Int(JSON_PARSER_MAX_DEPTH) - 1

    // MARK: StoreValue

    /// Decodes UTF-8 JSON bytes into a StoreValue (docs/store.md).
    ///
    /// ```swift
    /// try JanssonCodec.decode(Array(#"{"total": 3, "ratio": 3.0, "$$id": {"$number": "nan"}}"#.utf8))
    /// // ["total": .integer(3), "ratio": .number(3.0), "$id": .number(.nan)]
    /// ```
    /// - Throws: ``JanssonCodecError`` with code ``JanssonCodecError/Code/syntax`` (jansson's line, column,
    ///   position and text), ``JanssonCodecError/Code/tooDeep`` or ``JanssonCodecError/Code/invalidValue``.
    public static func decode(_ bytes: some Collection<UInt8>, maxDepth: Int = JSONLimits.defaultMaxDepth)
        throws(JanssonCodecError) -> StoreValue
    {
        let limit = clamped(maxDepth, envelope: 0)
        return try withParsed(bytes, limit: limit) { (root, rewritten) throws(JanssonCodecError) in
            try JanssonReader(maxDepth: limit, restoresKeyControls: rewritten).value(root.pointer)
        }
    }

    /// Decodes JSON text into a StoreValue, exactly as its UTF-8 bytes would be.
    public static func decode(_ text: String, maxDepth: Int = JSONLimits.defaultMaxDepth) throws(JanssonCodecError)
        -> StoreValue
    {
        try decode(text.utf8, maxDepth: maxDepth)
    }

    /// The compact JSON of `value` with sorted keys, as UTF-8 bytes: byte for byte the core's
    /// `value.jsonBytes(sortedKeys: true)`.
    ///
    /// ```swift
    /// try JanssonCodec.encode([1e300, 3.0, .number(.infinity)])   // [1e+300,3.0,{"$number":"inf"}]
    /// ```
    /// - Throws: ``JanssonCodecError`` with code ``JanssonCodecError/Code/tooDeep`` when the output would nest
    ///   deeper than `maxDepth` (tag objects count), or ``JanssonCodecError/Code/unencodable`` when jansson fails.
    public static func encode(_ value: StoreValue, maxDepth: Int = JSONLimits.defaultMaxDepth)
        throws(JanssonCodecError) -> [UInt8]
    {
        let tree = try JanssonBuilder(maxDepth: clamped(maxDepth, envelope: 0)).tree(value)
        return write(tree)
    }

    // MARK: Shared steps

    /// The depth limit for values inside `envelope` levels of wrapping (a patch object, a log line), so that the
    /// whole document stays within ``depthCeiling``.
    static func clamped(_ maxDepth: Int, envelope: Int) -> Int {
        max(0, min(maxDepth, depthCeiling - envelope))
    }

    /// Serializes a tree (``JanssonWriter``) and releases it.
    static func write(_ tree: consuming JanssonRef) -> [UInt8] {
        var writer = JanssonWriter()
        writer.write(tree.pointer)
        return writer.bytes
    }

    /// Pre-scans `bytes` (nesting up to `limit`), parses them with jansson and hands the root to `body`, together
    /// with whether keys were rewritten by the pre-scan (see ``JSONPreScan``). The tree is released when `body`
    /// returns or throws.
    static func withParsed<Result>(
        _ bytes: some Collection<UInt8>, limit: Int,
        _ body: (borrowing JanssonRef, Bool) throws(JanssonCodecError) -> Result
    ) throws(JanssonCodecError) -> Result {
        let parsed = bytes.withContiguousStorageIfAvailable { buffer in
            Swift.Result { () throws(JanssonCodecError) in try parse(buffer, limit: limit) }
        }
        let (root, rewritten) = try
            (parsed
            ?? Array(bytes).withUnsafeBufferPointer { buffer in
                Swift.Result { () throws(JanssonCodecError) in try parse(buffer, limit: limit) }
            }).get()
        return try body(JanssonRef(owning: root), rewritten)
    }

    /// The root jansson returns for `bytes` (a reference the caller owns), or jansson's error.
    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>, limit: Int) throws(JanssonCodecError)
        -> (UnsafeMutablePointer<json_t>, Bool)
    {
        let scan = try JSONPreScan(bytes, limit: limit)
        var error = json_error_t()
        let flags = Int(JSON_REJECT_DUPLICATES | JSON_DECODE_ANY | JSON_ALLOW_NUL)
        let root: UnsafeMutablePointer<json_t>?
        if scan.rewritesKeys {
            root = scan.rewritten(bytes).withUnsafeBufferPointer { load($0, flags, &error) }
        } else {
            root = load(bytes, flags, &error)
        }
        guard let root else { throw syntaxError(error, scan) }
        return (root, scan.rewritesKeys)
    }

    private static func load(_ bytes: UnsafeBufferPointer<UInt8>, _ flags: Int, _ error: inout json_error_t)
        -> UnsafeMutablePointer<json_t>?
    {
        bytes.withMemoryRebound(to: CChar.self) { chars in
            json_loadb(chars.baseAddress ?? JanssonText.empty, chars.count, flags, &error)
        }
    }

    /// jansson's error report as a ``JanssonCodecError``, its location mapped back to the caller's text.
    private static func syntaxError(_ error: json_error_t, _ scan: JSONPreScan) -> JanssonCodecError {
        var error = error
        let text = withUnsafeBytes(of: &error.text) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        let line = Int(error.line)
        let (column, position) = scan.originalLocation(
            line: line, column: Int(error.column), position: Int(error.position))
        return JanssonCodecError(.syntax, text, line: line, column: column, position: position)
    }
}
