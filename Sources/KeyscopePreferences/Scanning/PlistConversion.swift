import Foundation
import KeyscopeCore

#if canImport(Darwin)
import CoreFoundation
#endif

/// Property-list values (what a UserDefaults suite holds) to and from ``KeyscopeCore/StoreValue``, with the
/// preference's ``PreferenceValueType``.
///
/// | plist | StoreValue | type |
/// | --- | --- | --- |
/// | string | string | `string` |
/// | boolean (a `CFBoolean`, never a number 0 or 1) | bool | `bool` |
/// | integer | integer | `integer` |
/// | real | number | `number` |
/// | date | ISO 8601 string (``PreferenceTime``) | `date` |
/// | data | base64 string | `data` |
/// | array, dictionary | array, object (recursively) | `array`, `object` |
///
/// Back: by the value's case, guided by the value the key holds now (its template), so that a `date` preference
/// takes an ISO 8601 string, a `data` one a base64 string, and a `number` one an integer. Null, colors and URLs
/// have no plist form (`type_mismatch`).
enum PlistConversion {
    /// The deepest a value written to a suite may nest (JSON levels, as ``KeyscopeCore/StoreValue/depth(limit:)``
    /// counts them): corelibs Foundation validates and deep-copies a nested property list in `UserDefaults.set`
    /// by bridging each container's whole subtree again, in time cubic in its depth (0.23 s at 80 levels, over
    /// 30 s at 400). Preferences are shallow; 32 levels take milliseconds.
    static let maxSuiteDepth = 32

    /// `object` as a StoreValue and its type.
    /// - Throws: `type_mismatch` for a value with no StoreValue form (a dictionary with non-string keys, an
    ///   unknown class, arrays and dictionaries nested deeper than a store may hold, ``StoreLimits/maxDepth``),
    ///   naming `key`. `depth` is the number of containers around `object`: another app's suite may hold any
    ///   nesting, and this walk recurses once per level.
    static func decode(_ object: Any, key: String, depth: Int = 0) throws(PreferenceSourceError) -> (
        value: StoreValue, type: PreferenceValueType
    ) {
        guard depth < StoreLimits.maxDepth else {
            throw .typeMismatch(
                "key \(PreferenceNames.quoted(key)) nests arrays and dictionaries deeper than "
                    + "\(StoreLimits.maxDepth - 1) levels, more than a store may hold")
        }
        guard let object = unwrap(object) else {
            throw .typeMismatch("key \(PreferenceNames.quoted(key)) holds no value (a nil)")
        }
        switch object {
        case let text as String: return (.string(text), .string)
        case let date as Date: return (.string(PreferenceTime.format(date)), .date)
        case let data as Data: return (.string(data.base64EncodedString()), .data)
        case let numeric as NSNumber: return number(numeric)
        case let elements as [Any]:
            var values: [StoreValue] = []
            values.reserveCapacity(elements.count)
            for element in elements { values.append(try decode(element, key: key, depth: depth + 1).value) }
            return (.array(values), .array)
        case let members as [String: Any]:
            return (.object(try decodeMembers(members, key: key, depth: depth + 1)), .object)
        case let members as [AnyHashable: Any]:
            var strings: [String: Any] = [:]
            for (name, value) in members {
                guard let name = name.base as? String else {
                    throw .typeMismatch("key \(PreferenceNames.quoted(key)) holds a dictionary with a non-string key")
                }
                strings[name] = value
            }
            return (.object(try decodeMembers(strings, key: key, depth: depth + 1)), .object)
        default:
            throw .typeMismatch(
                "key \(PreferenceNames.quoted(key)) holds a \(type(of: object)), which is not a property-list value")
        }
    }

    /// The plist form of `value` for `key`, guided by `template` (what the key holds now, or `nil`).
    ///
    /// At the top level (`strict`) a date or data template requires an ISO 8601 or base64 string; inside arrays and
    /// dictionaries a string that does not read as the template's type stays a string.
    static func encode(_ value: StoreValue, like template: Any?, key: String, strict: Bool = true)
        throws(PreferenceSourceError) -> Any
    {
        if strict, value.depth(limit: maxSuiteDepth) > maxSuiteDepth {
            throw PreferenceSourceError(
                code: .tooLarge,
                message: "\(PreferenceNames.quoted(key)) would nest more than \(maxSuiteDepth) levels of arrays and "
                    + "dictionaries, more than a UserDefaults suite takes here; keep preferences flatter")
        }
        let template = template.flatMap(unwrap)
        switch (value, template) {
        case (.string(let text), is Date):
            if let date = PreferenceTime.parse(text) { return date }
            if !strict { return text }
            throw .typeMismatch(
                "\(PreferenceNames.quoted(key)) is a date preference: send an ISO 8601 time such as "
                    + "\"2026-11-21T10:00:00Z\", not \(PreferenceNames.quoted(text))")
        case (.string(let text), is Data):
            if let data = Data(base64Encoded: text) { return data }
            if !strict { return text }
            throw .typeMismatch("\(PreferenceNames.quoted(key)) is a data preference: send its bytes as base64")
        case (_, is Date) where strict:
            throw .typeMismatch(
                "\(PreferenceNames.quoted(key)) is a date preference: send an ISO 8601 string, not \(value.typeName)")
        case (_, is Data) where strict:
            throw .typeMismatch(
                "\(PreferenceNames.quoted(key)) is a data preference: send a base64 string, not \(value.typeName)")
        case (.string(let text), _):
            return text
        case (.integer(let integer), let number as NSNumber) where isReal(number):
            return Double(integer)
        case (.integer(let integer), _):
            return Int(truncatingIfNeeded: integer)
        case (.number(let number), _):
            return number
        case (.bool(let flag), _):
            return flag
        case (.array(let elements), _):
            let templates = template.flatMap { $0 as? [Any] } ?? []
            var objects: [Any] = []
            objects.reserveCapacity(elements.count)
            for (index, element) in elements.enumerated() {
                let elementTemplate = index < templates.count ? templates[index] : nil
                objects.append(try encode(element, like: elementTemplate, key: key, strict: false))
            }
            return objects
        case (.object(let members), _):
            let templates = template.flatMap(dictionary) ?? [:]
            var objects: [String: Any] = [:]
            for (name, member) in members {
                objects[name] = try encode(member, like: templates[name], key: key, strict: false)
            }
            return objects
        case (.null, _), (.color, _), (.url, _):
            throw .typeMismatch(
                "\(PreferenceNames.quoted(key)): a suite cannot hold \(value.typeName) values; send a string, number, "
                    + "bool, array or object")
        }
    }

    /// Whether two plist values are the same preference value (same type and StoreValue form).
    static func same(_ lhs: Any?, _ rhs: Any?) -> Bool {
        let lhs = lhs.flatMap(unwrap)
        let rhs = rhs.flatMap(unwrap)
        guard let lhs, let rhs else { return lhs == nil && rhs == nil }
        guard let left = try? decode(lhs, key: ""), let right = try? decode(rhs, key: "") else { return false }
        return left.type == right.type && left.value == right.value
    }

    /// `object` without the `Optional` boxes corelibs Foundation wraps some values in; `nil` for a nil.
    static func unwrap(_ object: Any) -> Any? {
        let mirror = Mirror(reflecting: object)
        guard mirror.displayStyle == .optional else { return object }
        guard let wrapped = mirror.children.first?.value else { return nil }
        return unwrap(wrapped)
    }

    // MARK: Details

    private static func decodeMembers(_ members: [String: Any], key: String, depth: Int)
        throws(PreferenceSourceError) -> [String: StoreValue]
    {
        var values: [String: StoreValue] = [:]
        values.reserveCapacity(members.count)
        for (name, member) in members { values[name] = try decode(member, key: key, depth: depth).value }
        return values
    }

    private static func dictionary(_ object: Any) -> [String: Any]? {
        if let members = object as? [String: Any] { return members }
        guard let members = object as? [AnyHashable: Any] else { return nil }
        var strings: [String: Any] = [:]
        for (name, value) in members { if let name = name.base as? String { strings[name] = value } }
        return strings
    }

    private static func number(_ number: NSNumber) -> (value: StoreValue, type: PreferenceValueType) {
        if isBoolean(number) { return (.bool(number.boolValue), .bool) }
        if isReal(number) { return (.number(number.doubleValue), .number) }
        switch String(cString: number.objCType) {
        case "Q", "L", "I":  // unsigned: beyond Int64 only as a number
            let unsigned = number.uint64Value
            if unsigned > UInt64(Int64.max) { return (.number(number.doubleValue), .number) }
            return (.integer(Int64(unsigned)), .integer)
        default:
            return (.integer(number.int64Value), .integer)
        }
    }

    private static func isReal(_ number: NSNumber) -> Bool {
        let type = String(cString: number.objCType)
        return type == "d" || type == "f"
    }

    /// Whether `number` is a property-list boolean. On Apple platforms a `CFBoolean`; in corelibs Foundation
    /// booleans are the only numbers of ObjC type `c` (an 8-bit integer is `i` there), and `as? Bool` cannot tell
    /// (it accepts any number that is 0 or 1).
    private static func isBoolean(_ number: NSNumber) -> Bool {
        #if canImport(Darwin)
        return CFGetTypeID(number) == CFBooleanGetTypeID()
        #else
        return String(cString: number.objCType) == "c"
        #endif
    }
}
