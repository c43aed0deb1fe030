import CJansson

/// One owned reference to a jansson value, released exactly once.
///
/// It is noncopyable, so the reference cannot be duplicated by accident: it is either dropped (its `deinit` calls
/// `json_decref`) or handed to one of jansson's reference-stealing `_new` functions with ``transfer()``, which
/// releases it itself, even when the insertion fails. jansson does no locking: a `JanssonRef` is made, used and
/// dropped within one codec call on one thread, and never escapes the module.
struct JanssonRef: ~Copyable {
    let pointer: UnsafeMutablePointer<json_t>

    /// Takes ownership of a fresh reference from a jansson constructor; `NULL` (jansson's only failure signal) is an
    /// error naming `what` was being built, never a value to skip.
    init(taking pointer: UnsafeMutablePointer<json_t>?, _ what: @autoclosure () -> String)
        throws(JanssonCodecError)
    {
        guard let pointer else { throw .constructorFailed(what()) }
        self.pointer = pointer
    }

    /// Takes ownership of a reference known to be non-NULL (the result of a successful `json_loadb`).
    init(owning pointer: UnsafeMutablePointer<json_t>) {
        self.pointer = pointer
    }

    deinit { json_decref(pointer) }

    /// Gives the reference away to a `_new` function (`json_array_append_new`, `json_object_setn_new`), which
    /// steals it.
    consuming func transfer() -> UnsafeMutablePointer<json_t> {
        let pointer = self.pointer
        discard self
        return pointer
    }

    /// Appends `element` to this array, which takes it over.
    func append(_ element: consuming JanssonRef) throws(JanssonCodecError) {
        guard json_array_append_new(pointer, element.transfer()) == 0 else {
            throw .constructorFailed("an array element")
        }
    }

    /// Sets `key` (UTF-8 bytes, NUL allowed) to `value` in this object, which takes the value over.
    func set(_ key: UnsafeBufferPointer<UInt8>, _ value: consuming JanssonRef) throws(JanssonCodecError) {
        let member = value.transfer()  // stolen by `json_object_setn_new`, even when it fails
        let status = key.withMemoryRebound(to: CChar.self) { key in
            json_object_setn_new(pointer, key.baseAddress ?? JanssonText.empty, key.count, member)
        }
        guard status == 0 else { throw .constructorFailed("an object member") }
    }

    /// Sets an ASCII key (`"op"`, `"$color"`…) to `value`.
    func set(_ key: StaticString, _ value: consuming JanssonRef) throws(JanssonCodecError) {
        try set(UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount), value)
    }
}

/// Moving Swift text into jansson.
enum JanssonText {
    /// A valid pointer for zero-length text: jansson treats a `NULL` string pointer as an error even with length 0.
    static var empty: UnsafePointer<CChar> {
        UnsafeRawPointer(("" as StaticString).utf8Start).assumingMemoryBound(to: CChar.self)
    }

    /// A jansson string holding exactly the UTF-8 bytes of `text` (NUL included); jansson checks them again.
    static func string(_ text: String) throws(JanssonCodecError) -> JanssonRef {
        var text = text
        let pointer = text.withUTF8 { bytes in string(bytes) }
        return try JanssonRef(taking: pointer, "a string")
    }

    /// A jansson string from UTF-8 bytes; `NULL` when they are not UTF-8 or memory ran out.
    static func string(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeMutablePointer<json_t>? {
        bytes.withMemoryRebound(to: CChar.self) { chars in
            json_stringn(chars.baseAddress ?? empty, chars.count)
        }
    }

    /// A jansson string from ASCII text known at compile time.
    static func string(_ text: StaticString) throws(JanssonCodecError) -> JanssonRef {
        try JanssonRef(
            taking: string(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)), "a string")
    }
}
