public import KeyscopeCore

extension JanssonCodec {
    /// Decodes a JSON object whose members are read one by one: a request envelope such as
    /// `{"id": 7, "type": "write", "value": {"$color": "red"}}`, where a bad `value` must not hide the `id`.
    ///
    /// ```swift
    /// let members = try JanssonCodec.decodeMembers(bytes)          // nil: the text is JSON but not an object
    /// let id = try? members?["id"]?.get()                           // .integer(7)
    /// if case .failure(let error)? = members?["value"] { … }        // invalidValue: $color must be "#RRGGBB"…
    /// ```
    /// Keys are as written (the `$`-escape of docs/store.md applies to StoreValue objects, not to the envelope's own
    /// keys); each value is decoded as by ``decode(_:maxDepth:)``, with the envelope counting as one level.
    /// - Throws: ``JanssonCodecError`` for text that is not JSON (``JanssonCodecError/Code/syntax``, with jansson's
    ///   line and column) or nests deeper than `maxDepth` (``JanssonCodecError/Code/tooDeep``), checked before
    ///   jansson parses it.
    public static func decodeMembers(_ bytes: some Collection<UInt8>, maxDepth: Int = JSONLimits.defaultMaxDepth)
        throws(JanssonCodecError) -> [String: Result<StoreValue, JanssonCodecError>]?
    {
        let limit = clamped(maxDepth, envelope: 0)
        return try withParsed(bytes, limit: limit) { (root, rewritten) throws(JanssonCodecError) in
            try JanssonReader(maxDepth: limit, restoresKeyControls: rewritten).members(root.pointer)
        }
    }
}
