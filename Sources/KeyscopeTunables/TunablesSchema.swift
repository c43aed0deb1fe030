public import Foundation
public import KeyscopeCore

/// What each tunable may hold, read from `live-constants.schema.json`: a type, and optionally a range, a step, a list
/// of options, a description and a group (what the dashboard builds its controls from).
///
/// ```json
/// {
///   "toolbar_height": {"type": "integer", "min": 24, "max": 120, "step": 4, "group": "Layout"},
///   "accent": {"type": "color", "description": "Buttons and links"},
///   "mode": {"type": "string", "options": ["fast", "safe"]}
/// }
/// ```
/// ```swift
/// let schema = try TunablesSchema(contentsOf: URL(fileURLWithPath: "Resources/live-constants.schema.json"))
/// try schema.check(key: "toolbar_height", value: 64)
/// ```
/// Keys the schema does not list are allowed with no checks, unless the schema is closed: a top-level
/// `"additionalKeys": false` (``additionalKeys``) refuses every key that neither it nor the defaults list, for typo
/// protection. A schema that is not consistent (an unknown type or field, `min` above `max`, a `step` that is not
/// positive, an option outside the range…) is refused when it is read, with ``TunablesError/Code/badSchema``.
public struct TunablesSchema: Sendable, Hashable {
    /// The type of a tunable, as written in the schema's `type` field.
    public enum ValueType: String, Sendable, Hashable, CaseIterable {
        /// A double: `.number`, or an `.integer` (accepted as the same number).
        case number
        /// A whole number in the Int64 range: `.integer` only (`64.0` is refused; write `64`).
        case integer
        /// `.string`.
        case string
        /// `.bool`.
        case bool
        /// `.color`: `{"$color": "#RRGGBB"}` or `{"$color": "#RRGGBBAA"}`.
        case color
        /// `.url`: `{"$url": "https://…"}` (absolute URLs only).
        case url

        /// Whether `min`, `max` and `step` apply to the type.
        public var isNumeric: Bool { self == .number || self == .integer }
    }

    /// The rules for one tunable.
    public struct Entry: Sendable, Hashable {
        /// The type every value must have.
        public var type: ValueType
        /// The smallest allowed value (numeric types only): `.integer` for integer tunables, `.number` otherwise.
        public var min: StoreValue?
        /// The largest allowed value (numeric types only).
        public var max: StoreValue?
        /// Allowed values are `min + k × step` (or `k × step` without a `min`), numeric types only; positive.
        public var step: StoreValue?
        /// When present, the only allowed values (each of the entry's type and within its range).
        public var options: [StoreValue]?
        /// What the tunable does, for people.
        public var description: String?
        /// A heading the dashboard groups tunables under.
        public var group: String?
        /// Whether a whole new set of values (`POST /tune`, a file edit) must include the key. Defaults to `true`.
        public var required: Bool

        /// An entry; ``TunablesSchema/init(entries:source:)`` checks that its fields fit together.
        public init(
            type: ValueType, min: StoreValue? = nil, max: StoreValue? = nil, step: StoreValue? = nil,
            options: [StoreValue]? = nil, description: String? = nil, group: String? = nil, required: Bool = true
        ) {
            self.type = type
            self.min = min
            self.max = max
            self.step = step
            self.options = options
            self.description = description
            self.group = group
            self.required = required
        }
    }

    /// The fields an entry may have; any other field is an error (it is most likely a typo).
    public static let fieldNames = ["type", "min", "max", "step", "options", "description", "group", "required"]

    /// The top-level member that opens or closes the schema: `"additionalKeys": false` (a bool, where an entry
    /// would be an object).
    public static let additionalKeysName = "additionalKeys"

    /// The rules, by tunable key.
    public let entries: [String: Entry]

    /// Whether keys that neither the schema nor the defaults list may be created (`true`, the default: the
    /// tunables are an open JSON object). `false` closes the set: writes of other keys get
    /// ``TunablesError/Code/unknownKey``.
    public let additionalKeys: Bool

    /// A schema from entries, after checking each one (`source` names it in errors). Numeric fields are normalised
    /// to the entry's type: `.number` for number tunables (an integer `min` of `0` becomes `0.0`).
    public init(entries: [String: Entry], additionalKeys: Bool = true, source: String = "schema")
        throws(TunablesError)
    {
        var checked: [String: Entry] = [:]
        for (key, entry) in entries { checked[key] = try entry.normalised(key: key, source: source) }
        self.entries = checked
        self.additionalKeys = additionalKeys
    }

    /// Reads a schema from JSON: an object of key → entry object (see the type's documentation).
    public init(jsonData: Data, source: String = "schema") throws(TunablesError) {
        let document: StoreValue
        do {
            document = try StoreValue(jsonData: jsonData)
        } catch {
            throw .badSchema(source, "does not parse: \(error) (fix the JSON there)")
        }
        guard case .object(let members) = document else {
            throw .badSchema(
                source, "must be a JSON object of tunable key → {\"type\": …}, found \(document.typeName)")
        }
        var entries: [String: Entry] = [:]
        var additionalKeys = true
        for (key, value) in members {
            // A bool here is the setting; an object is the entry of a tunable that happens to have this name.
            if key == Self.additionalKeysName, case .bool(let open) = value {
                additionalKeys = open
                continue
            }
            if key == Self.additionalKeysName, value.objectValue == nil {
                throw .badSchema(
                    source,
                    "\"\(key)\" must be true or false (false refuses keys the schema and defaults lack), "
                        + "found \(value.typeName)")
            }
            entries[key] = try Entry(parsing: value, key: key, source: source)
        }
        try self.init(entries: entries, additionalKeys: additionalKeys, source: source)
    }

    /// Reads the schema file at `url`: ``TunablesError/Code/missingFile`` when it does not exist.
    public init(contentsOf url: URL) throws(TunablesError) {
        try self.init(jsonData: readFile(url, what: "schema file"), source: url.path)
    }

    /// The keys a whole new set of values must include.
    public var requiredKeys: Set<String> { Set(entries.filter { $0.value.required }.keys) }

    /// The normalised JSON form the dashboard reads: every entry with `type` and `required`, and the other fields
    /// only when present; numbers in the entry's type (`0.0` for a number tunable's `min` of `0`).
    public var jsonValue: StoreValue {
        .object(entries.mapValues(\.jsonValue))
    }
}

extension TunablesSchema.Entry {
    /// The entry's normalised JSON form (see ``TunablesSchema/jsonValue``).
    public var jsonValue: StoreValue {
        var fields: [String: StoreValue] = ["type": .string(type.rawValue), "required": .bool(required)]
        fields["min"] = min
        fields["max"] = max
        fields["step"] = step
        fields["options"] = options.map { .array($0) }
        fields["description"] = description.map { .string($0) }
        fields["group"] = group.map { .string($0) }
        return .object(fields)
    }

    /// Reads one entry object, refusing unknown fields and fields of the wrong JSON type.
    init(parsing value: StoreValue, key: String, source: String) throws(TunablesError) {
        guard case .object(let fields) = value else {
            throw .badSchema(
                source, "must be an object such as {\"type\": \"number\"}, found \(value.typeName)", key: key)
        }
        let allowed = TunablesSchema.fieldNames
        if let unknown = fields.keys.sorted().first(where: { !allowed.contains($0) }) {
            throw .badSchema(
                source, "unknown field \"\(unknown)\" (fields: \(allowed.joined(separator: ", ")))", key: key)
        }
        let typeNames = TunablesSchema.ValueType.allCases.map(\.rawValue).joined(separator: ", ")
        guard let typeField = fields["type"] else {
            throw .badSchema(source, "\"type\" is missing (one of \(typeNames))", key: key)
        }
        guard let typeName = typeField.stringValue, let type = TunablesSchema.ValueType(rawValue: typeName) else {
            throw .badSchema(source, "\"type\" must be one of \(typeNames), found \(typeField.jsonText())", key: key)
        }
        func text(_ name: String) throws(TunablesError) -> String? {
            guard let field = fields[name] else { return nil }
            guard let string = field.stringValue else {
                throw .badSchema(source, "\"\(name)\" must be a string, found \(field.typeName)", key: key)
            }
            return string
        }
        var required = true
        if let field = fields["required"] {
            guard let flag = field.boolValue else {
                throw .badSchema(source, "\"required\" must be true or false, found \(field.typeName)", key: key)
            }
            required = flag
        }
        var options: [StoreValue]?
        if let field = fields["options"] {
            guard let list = field.arrayValue else {
                throw .badSchema(
                    source, "\"options\" must be an array of allowed values, found \(field.typeName)", key: key)
            }
            options = list
        }
        self.init(
            type: type, min: fields["min"], max: fields["max"], step: fields["step"], options: options,
            description: try text("description"), group: try text("group"), required: required)
    }

    /// The entry with its numbers in the type's form, after checking that its fields fit together.
    func normalised(key: String, source: String) throws(TunablesError) -> Self {
        var entry = self
        for (name, bound) in [("min", min), ("max", max), ("step", step)] {
            guard let bound else { continue }
            guard type.isNumeric else {
                throw .badSchema(
                    source, "\"\(name)\" applies to number and integer tunables only, not \(type)", key: key)
            }
            let normal = try Self.numeric(bound, type: type, field: name, key: key, source: source)
            switch name {
            case "min": entry.min = normal
            case "max": entry.max = normal
            default: entry.step = normal
            }
        }
        if let low = entry.min, let high = entry.max, low.doubleValue! > high.doubleValue! {
            throw .badSchema(source, "\"min\" (\(low.jsonText())) is above \"max\" (\(high.jsonText()))", key: key)
        }
        if let step = entry.step?.doubleValue, !(step > 0) {
            throw .badSchema(source, "\"step\" must be above 0, found \(entry.step!.jsonText())", key: key)
        }
        if let options {
            guard !options.isEmpty else {
                throw .badSchema(source, "\"options\" is empty: list the allowed values, or leave it out", key: key)
            }
            // Each option must itself pass the entry's other rules, or no value could ever be both.
            var rules = entry
            rules.options = nil
            var normalOptions: [StoreValue] = []
            for option in options {
                let normal = type == .number ? option.doubleValue.map(StoreValue.number) ?? option : option
                do {
                    try rules.check(normal, key: key)
                } catch {
                    throw .badSchema(
                        source, "option \(option.jsonText()) breaks the entry's other rules: \(error.message)",
                        key: key)
                }
                normalOptions.append(normal)
            }
            entry.options = normalOptions
        }
        return entry
    }

    private static func numeric(
        _ value: StoreValue, type: TunablesSchema.ValueType, field: String, key: String, source: String
    )
        throws(TunablesError) -> StoreValue
    {
        switch (type, value) {
        case (.integer, .integer): return value
        case (.number, .integer(let i)): return .number(Double(i))
        case (.number, .number(let d)) where d.isFinite: return value
        case (.integer, _):
            throw .badSchema(
                source, "\"\(field)\" of an integer tunable must be an integer, found \(value.jsonText())", key: key)
        default:
            throw .badSchema(source, "\"\(field)\" must be a finite number, found \(value.jsonText())", key: key)
        }
    }
}

/// The bytes of `url`: ``TunablesError/Code/missingFile`` when it does not exist, ``TunablesError/Code/io`` when it
/// cannot be read.
func readFile(_ url: URL, what: String) throws(TunablesError) -> Data {
    do {
        return try Data(contentsOf: url)
    } catch {
        if !FileManager.default.fileExists(atPath: url.path) {
            throw TunablesError(code: .missingFile, message: "the \(what) \(url.path) does not exist")
        }
        throw TunablesError(code: .io, message: "could not read the \(what) \(url.path): \(error.localizedDescription)")
    }
}
