import CJansson
import Foundation
import KeyscopeCore

/// Builds the jansson tree of a StoreValue's JSON form (docs/store.md): colors, urls and non-finite numbers become
/// one-key tag objects, and object keys that begin with `$` get one more `$`.
///
/// Nothing is dropped: jansson returns `NULL` for a real that is not finite (those never reach it, they are tagged)
/// and for text that is not UTF-8, and every `NULL` or failed insertion is an error. The depth is checked on the
/// way down, so no tree is built deeper than a reader accepts.
struct JanssonBuilder {
    /// The deepest nesting the output may have (containers and tag objects count one level each).
    let maxDepth: Int

    /// The tree for `value`, found inside `depth` containers of the output.
    ///
    /// Containers are built by separate functions so that this one, which recurses once per level, keeps a small
    /// stack frame even in debug builds (2047 levels must fit on a secondary thread's stack).
    func tree(_ value: StoreValue, depth: Int = 0) throws(JanssonCodecError) -> JanssonRef {
        switch value {
        case .array(let elements): try array(elements, depth: depth)
        case .object(let members): try object(members, depth: depth)
        default: try scalar(value, depth: depth)
        }
    }

    private func array(_ elements: [StoreValue], depth: Int) throws(JanssonCodecError) -> JanssonRef {
        try enter(depth)
        let array = try JanssonRef(taking: json_array(), "an array")
        for element in elements { try array.append(tree(element, depth: depth + 1)) }
        return array
    }

    private func object(_ members: [String: StoreValue], depth: Int) throws(JanssonCodecError) -> JanssonRef {
        try enter(depth)
        let object = try JanssonRef(taking: json_object(), "an object")
        for (key, member) in members {
            try Self.set(key, escaped: true, to: tree(member, depth: depth + 1), in: object)
        }
        // `$`-escaping is injective and distinct Swift keys differ in their bytes, so no member replaced another.
        guard json_object_size(object.pointer) == members.count else { throw .constructorFailed("an object's keys") }
        return object
    }

    private func scalar(_ value: StoreValue, depth: Int) throws(JanssonCodecError) -> JanssonRef {
        switch value {
        case .string(let text):
            return try JanssonText.string(text)
        case .integer(let integer):
            return try JanssonRef(taking: json_integer(json_int_t(integer)), "the integer \(integer)")
        case .number(let number):
            if number.isNaN { return try tagged("$number", "nan", depth: depth) }
            if number.isInfinite { return try tagged("$number", number < 0 ? "-inf" : "inf", depth: depth) }
            return try JanssonRef(taking: json_real(number), "the number \(number)")
        case .bool(let flag):
            return try JanssonRef(taking: flag ? json_true() : json_false(), "a boolean")
        case .null:
            return try JanssonRef(taking: json_null(), "null")
        case .color(let color):
            return try tagged("$color", JanssonText.string(color.hex), depth: depth)
        case .url(let url):
            return try tagged("$url", JanssonText.string(url.absoluteString), depth: depth)
        case .array, .object:
            return try tree(value, depth: depth)
        }
    }

    private func enter(_ depth: Int) throws(JanssonCodecError) {
        guard depth < maxDepth else { throw .tooDeepToEncode(limit: maxDepth) }
    }

    private func tagged(_ tag: StaticString, _ payload: StaticString, depth: Int) throws(JanssonCodecError)
        -> JanssonRef
    {
        try tagged(tag, JanssonText.string(payload), depth: depth)
    }

    private func tagged(_ tag: StaticString, _ payload: consuming JanssonRef, depth: Int) throws(JanssonCodecError)
        -> JanssonRef
    {
        try enter(depth)
        let object = try JanssonRef(taking: json_object(), "a tagged value")
        try object.set(tag, payload)
        return object
    }

    /// Sets `key` to `value` in `object`; with `escaped`, a key that begins with `$` is written with one more `$`.
    static func set(_ key: String, escaped: Bool, to value: consuming JanssonRef, in object: borrowing JanssonRef)
        throws(JanssonCodecError)
    {
        var key = escaped && key.utf8.first == UInt8(ascii: "$") ? "$" + key : key
        let member = value.transfer()
        // `json_object_setn_new` takes `member` over whatever happens, and checks that the key is UTF-8.
        let status = key.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { chars in
                json_object_setn_new(object.pointer, chars.baseAddress ?? JanssonText.empty, chars.count, member)
            }
        }
        guard status == 0 else { throw .constructorFailed("the object member \"\(key)\"") }
    }
}
