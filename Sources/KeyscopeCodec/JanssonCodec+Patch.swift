import CJansson
public import KeyscopeCore

extension JanssonCodec {
    /// The patch as compact JSON with sorted keys, `{"new"?, "old"?, "op", "path"}` (docs/store.md "Patches"):
    /// byte for byte the core's `patch.jsonObject.jsonText(sortedKeys: true)`. The path is in canonical form.
    ///
    /// ```swift
    /// let patch = StorePatch(op: .set, keyPath: "cart.total", oldValue: 90, newValue: 100)
    /// try JanssonCodec.encode(patch)   // {"new":100,"old":90,"op":"set","path":"cart.total"}
    /// ```
    /// - Parameter maxDepth: the deepest nesting `old` and `new` may each have; the patch object comes on top.
    public static func encode(_ patch: StorePatch, maxDepth: Int = JSONLimits.defaultMaxDepth)
        throws(JanssonCodecError) -> [UInt8]
    {
        let builder = JanssonBuilder(maxDepth: clamped(maxDepth, envelope: 1))
        return write(try patchTree(patch, builder))
    }

    /// Reads a patch from its JSON object; the fields must fit the `op` (as `StorePatch(jsonObject:)` checks).
    /// Unknown keys are ignored.
    ///
    /// ```swift
    /// try JanssonCodec.decodePatch(Array(#"{"op":"remove","path":"items[2]","old":{"title":"x"}}"#.utf8))
    /// ```
    /// - Throws: ``JanssonCodecError``; ``JanssonCodecError/Code/invalidValue`` for JSON that is not a patch.
    public static func decodePatch(_ bytes: some Collection<UInt8>, maxDepth: Int = JSONLimits.defaultMaxDepth)
        throws(JanssonCodecError) -> StorePatch
    {
        let limit = clamped(maxDepth, envelope: 1)
        return try withParsed(bytes, limit: limit + 1) { (root, rewritten) throws(JanssonCodecError) in
            try patch(root.pointer, JanssonReader(maxDepth: limit + 1, restoresKeyControls: rewritten))
        }
    }

    /// The jansson object of a patch; `builder` limits the depth of `old` and `new`.
    static func patchTree(_ patch: StorePatch, _ builder: JanssonBuilder) throws(JanssonCodecError) -> JanssonRef {
        let object = try JanssonRef(taking: json_object(), "a patch")
        try object.set("op", JanssonText.string(patch.op.rawValue))
        try object.set("path", JanssonText.string(patch.keyPath.description))
        if let old = patch.oldValue { try object.set("old", builder.tree(old)) }
        if let new = patch.newValue { try object.set("new", builder.tree(new)) }
        return object
    }

    /// The patch in a parsed JSON object; `reader` limits the depth of the object (one more than its values).
    static func patch(_ json: UnsafeMutablePointer<json_t>, _ reader: JanssonReader) throws(JanssonCodecError)
        -> StorePatch
    {
        let value = try reader.value(json)
        do {
            return try StorePatch(jsonObject: value)
        } catch {
            throw .invalidValue("not a valid patch: \(error)")
        }
    }
}
