import CJansson
import Foundation
import KeyscopeCore

/// Turns a parsed jansson tree into a StoreValue by the rules of StoreValue JSON (docs/store.md), as the core's reader does.
///
/// jansson has already checked the syntax, UTF-8, escapes, raw key duplicates, the Int64 range of integers (its
/// `json_int_t` is `long long`) and real overflow, and it keeps each number literal's kind (integer or real). This
/// adds what is Keyscope's own: one-key `$number` / `$color` / `$url` objects are tagged values with checked
/// payloads, other keys lose one leading `$`, and keys that collide once unescaped are duplicates.
struct JanssonReader {
    /// The deepest nesting a value may have (containers and tagged objects count one level each).
    let maxDepth: Int
    /// The pre-scan rewrote `\u0000` in keys; keys must be mapped back (``JSONPreScan/restoreKeyControls(_:)``).
    let restoresKeyControls: Bool

    /// The value of `json`, found inside `depth` containers.
    ///
    /// Containers are read by separate functions so that the recursion keeps small stack frames even in debug
    /// builds (2047 levels must fit on a secondary thread's stack).
    func value(_ json: UnsafeMutablePointer<json_t>, depth: Int = 0) throws(JanssonCodecError) -> StoreValue {
        switch kjs_typeof(json) {
        case JSON_OBJECT: try object(json, depth: depth + 1)
        case JSON_ARRAY: try array(json, depth: depth + 1)
        default: try Self.scalar(json)
        }
    }

    private func array(_ json: UnsafeMutablePointer<json_t>, depth: Int) throws(JanssonCodecError) -> StoreValue {
        guard depth <= maxDepth else { throw .tooDeepToDecode(limit: maxDepth) }
        let count = json_array_size(json)
        var elements: [StoreValue] = []
        elements.reserveCapacity(count)
        for index in 0..<count {
            guard let element = json_array_get(json, index) else { throw .missingChild() }
            elements.append(try value(element, depth: depth))
        }
        return .array(elements)
    }

    private static func scalar(_ json: UnsafeMutablePointer<json_t>) throws(JanssonCodecError) -> StoreValue {
        switch kjs_typeof(json) {
        case JSON_STRING:
            return .string(try string(json))
        case JSON_INTEGER:
            return .integer(Int64(json_integer_value(json)))
        case JSON_REAL:
            // jansson refuses literals that overflow (and has no NaN or infinity), so this is finite.
            return .number(json_real_value(json))
        case JSON_TRUE:
            return .bool(true)
        case JSON_FALSE:
            return .bool(false)
        case JSON_NULL:
            return .null
        default:
            throw .invalidValue("jansson returned a value of unexpected type \(kjs_typeof(json).rawValue)")
        }
    }

    /// The text of a jansson string (NUL included). jansson's parser and its string constructors accept only UTF-8,
    /// so the bytes are taken as they are (`String(decoding:)` would repair, but has nothing to repair).
    static func string(_ json: UnsafeMutablePointer<json_t>) throws(JanssonCodecError) -> String {
        guard let start = json_string_value(json) else { throw .missingChild() }
        return String(decoding: utf8(start, count: json_string_length(json)), as: UTF8.self)
    }

    private static func utf8(_ start: UnsafePointer<CChar>, count: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: UnsafeRawPointer(start).assumingMemoryBound(to: UInt8.self), count: count)
    }

    /// The members of a top-level object, each read on its own: keys as written (no `$`-escape), values as
    /// StoreValues or the error that one member's value has. `nil` when `json` is not an object.
    func members(_ json: UnsafeMutablePointer<json_t>) throws(JanssonCodecError)
        -> [String: Result<StoreValue, JanssonCodecError>]?
    {
        guard kjs_typeof(json) == JSON_OBJECT else { return nil }
        var members: [String: Result<StoreValue, JanssonCodecError>] = [:]
        var iterator = json_object_iter(json)
        while let current = iterator {
            guard let member = json_object_iter_value(current) else { throw .missingChild() }
            members[try key(current, unescaping: false)] = Result { () throws(JanssonCodecError) in
                try value(member, depth: 1)
            }
            iterator = json_object_iter_next(json, current)
        }
        return members
    }

    private func object(_ json: UnsafeMutablePointer<json_t>, depth: Int) throws(JanssonCodecError) -> StoreValue {
        guard depth <= maxDepth else { throw .tooDeepToDecode(limit: maxDepth) }
        let count = json_object_size(json)
        var iterator = json_object_iter(json)
        if count == 1, let only = iterator, let tag = Self.tag(only) {
            guard let payload = json_object_iter_value(only) else { throw .missingChild() }
            return try Self.tagged(tag, payload)
        }
        var members: [String: StoreValue] = [:]
        members.reserveCapacity(count)
        while let current = iterator {
            let key = try key(current)
            guard let member = json_object_iter_value(current) else { throw .missingChild() }
            let element = try value(member, depth: depth)
            // Swift's `String` equality is canonical equivalence, as in the core's reader.
            if members.updateValue(element, forKey: key) != nil {
                throw .invalidValue(
                    "duplicate key \"\(key)\" in an object: keys are compared with one leading `$` removed (\"$x\" is "
                        + "\"x\") and as Swift strings (canonically equivalent spellings are one key); write each key once"
                )
            }
            iterator = json_object_iter_next(json, current)
        }
        return .object(members)
    }

    /// The key at an object iterator without its `$`-escape (docs/store.md: one leading `$`, a one-byte scalar, is
    /// dropped; not for envelope keys, `unescaping: false`), with the pre-scan's rewrite of control characters undone.
    private func key(_ iterator: UnsafeMutableRawPointer, unescaping: Bool = true) throws(JanssonCodecError) -> String {
        guard let start = json_object_iter_key(iterator) else { throw .missingChild() }
        var bytes = Self.utf8(start, count: json_object_iter_key_len(iterator))
        if unescaping, bytes.first == UInt8(ascii: "$") { bytes = UnsafeBufferPointer(rebasing: bytes.dropFirst()) }
        if restoresKeyControls { return String(decoding: JSONPreScan.restoreKeyControls(bytes), as: UTF8.self) }
        return String(decoding: bytes, as: UTF8.self)
    }

    // MARK: Tagged values

    private enum Tag { case number, color, url }

    /// The tag named by the only key of an object, if that key is exactly `$number`, `$color` or `$url`.
    private static func tag(_ iterator: UnsafeMutableRawPointer) -> Tag? {
        guard let start = json_object_iter_key(iterator) else { return nil }
        let key = UnsafeRawBufferPointer(start: start, count: json_object_iter_key_len(iterator))
        switch key.count {
        case 4 where key.elementsEqual("$url".utf8): return .url
        case 6 where key.elementsEqual("$color".utf8): return .color
        case 7 where key.elementsEqual("$number".utf8): return .number
        default: return nil
        }
    }

    private static func tagged(_ tag: Tag, _ payload: UnsafeMutablePointer<json_t>) throws(JanssonCodecError)
        -> StoreValue
    {
        let text = kjs_typeof(payload) == JSON_STRING ? try string(payload) : nil
        switch tag {
        case .number:
            switch text {
            case "nan": return .number(.nan)
            case "inf": return .number(.infinity)
            case "-inf": return .number(-.infinity)
            default: throw .invalidValue("$number must be \"nan\", \"inf\" or \"-inf\"")
            }
        case .color:
            guard let text, let color = StoreColor(text) else {
                throw .invalidValue("$color must be \"#RRGGBB\" or \"#RRGGBBAA\"")
            }
            return .color(color)
        case .url:
            guard let text, let url = StoreValue.absoluteURL(text) else {
                throw .invalidValue("$url must be an absolute URL")
            }
            return .url(url)
        }
    }
}

extension JanssonCodecError {
    static func tooDeepToDecode(limit: Int) -> JanssonCodecError {
        JanssonCodecError(.tooDeep, "a value nests arrays and objects deeper than the limit of \(limit) levels")
    }

    static func missingChild() -> JanssonCodecError {
        JanssonCodecError(.invalidValue, "jansson returned NULL for a member of a value it parsed")
    }
}
