import CJansson
import Foundation
public import KeyscopeCore

extension JanssonCodec {
    /// The line of a log event (LOG-FORMAT.md) as compact JSON with sorted keys, without the final `\n` (a
    /// recording adds it; the wire's `changes` entries embed the object as it is).
    ///
    /// A change is `{"patches":[…],"seq":N,"store":"…","time":"…","txn":"UUID"|null}` (`txn` in upper case,
    /// `null` for single writes); a store event is `{"event":"registered","root":{…},"seq":N,"store":"…","time":"…",
    /// "version":"1.0.0"}`, `reset` has `version` and no `root`, `removed` has neither.
    ///
    /// ```swift
    /// let entry = LogEntry(seq: 2, time: .now, event: .removed(StoreID("scenario:checkout/memory")!))
    /// try JanssonCodec.encode(entry)   // {"event":"removed","seq":2,"store":"scenario:checkout/memory","time":"…"}
    /// ```
    /// - Parameter maxDepth: the deepest nesting each value (a patch's `old` or `new`, a root) may have; the line's
    ///   own levels come on top.
    /// - Parameter extras: members beyond the contract's, which readers ignore (a recorder's `liveSeq` or
    ///   `subscriptions`, docs/recording.md); none may be one of the line's own keys.
    /// - Throws: ``JanssonCodecError``: ``JanssonCodecError/Code/invalidLogLine`` for a `seq` below 1, a `root`
    ///   that is not an object (a reader would refuse the line) or an extra with a line key, or a depth or jansson
    ///   error.
    public static func encode(
        _ entry: LogEntry, extras: [String: StoreValue] = [:], maxDepth: Int = JSONLimits.defaultMaxDepth
    ) throws(JanssonCodecError) -> [UInt8] {
        guard entry.seq >= 1 else { throw .invalidLogLine("\"seq\" must be at least 1, not \(entry.seq)") }
        if case .registered(_, _, let root) = entry.event, root.objectValue == nil {
            throw .invalidLogLine("\"root\" must be an object, not \(root.typeName)")
        }
        let builder = JanssonBuilder(maxDepth: clamped(maxDepth, envelope: lineEnvelope))
        let line = try JanssonRef(taking: json_object(), "a log line")
        try line.set("seq", JanssonRef(taking: json_integer(json_int_t(entry.seq)), "the seq \(entry.seq)"))
        try line.set("time", string(entry.time.rfc3339Bytes))
        try line.set("store", JanssonText.string(entry.event.storeID.description))
        if let kind = entry.event.kind { try line.set("event", JanssonText.string(kind)) }
        switch entry.event {
        case .change(let change):
            let patches = try JanssonRef(taking: json_array(), "the patches")
            for patch in change.patches { try patches.append(patchTree(patch, builder)) }
            try line.set("patches", patches)
            if let transaction = change.transactionID {
                try line.set("txn", string(uuidBytes(transaction)))
            } else {
                try line.set("txn", JanssonRef(taking: json_null(), "null"))
            }
        case .registered(_, let version, let root):
            try line.set("version", JanssonText.string(version.description))
            try line.set("root", builder.tree(root))
        case .reset(_, let version):
            try line.set("version", JanssonText.string(version.description))
        case .removed:
            break
        }
        for (key, value) in extras {
            guard !lineKeys.contains(key), key.utf8.first != UInt8(ascii: "$") else {
                throw .invalidLogLine("the extra \"\(key)\" is one of the line's keys or starts with $")
            }
            let member = try builder.tree(value)
            let status = json_object_setn_new(line.pointer, key, key.utf8.count, member.transfer())
            guard status == 0 else { throw .constructorFailed("the extra \"\(key)\"") }
        }
        return write(line)
    }

    /// The line of a change with its `seq` and `time`; see ``encode(_:extras:maxDepth:)``.
    ///
    /// ```swift
    /// try JanssonCodec.encodeChange(change, seq: 1, time: LogTime(rfc3339: "2026-11-21T10:00:00.125000Z")!)
    /// // {"patches":[{"new":100,"old":90,"op":"set","path":"cart.total"}],"seq":1,"store":"app/memory",
    /// //  "time":"2026-11-21T10:00:00.125000Z","txn":null}
    /// ```
    public static func encodeChange(
        _ change: StoreChange, seq: Int64, time: LogTime, maxDepth: Int = JSONLimits.defaultMaxDepth
    ) throws(JanssonCodecError) -> [UInt8] {
        try encode(LogEntry(seq: seq, time: time, event: .change(change)), extras: [:], maxDepth: maxDepth)
    }

    /// Reads one event line (the header line is not an event). Following LOG-FORMAT.md: unknown keys are ignored
    /// (they must still be valid JSON); a line with an `event` key is a store event and an unknown kind is an error;
    /// any other line is a change, whose absent `txn` reads as `null`. A final `\n` may be included. A store id
    /// renamed since the line was written reads as its current form (``KeyscopeCore/StoreID/recorded(_:)``).
    ///
    /// ```swift
    /// let entry = try JanssonCodec.decodeLogEntry(Array(line.utf8))
    /// if case .change(let change) = entry.event { print(entry.seq, change.patches) }
    /// ```
    /// - Throws: ``JanssonCodecError``: ``JanssonCodecError/Code/invalidLogLine`` for a missing key or a wrong
    ///   type, ``JanssonCodecError/Code/invalidTime`` for a bad `time`, or a JSON or value error.
    public static func decodeLogEntry(_ bytes: some Collection<UInt8>, maxDepth: Int = JSONLimits.defaultMaxDepth)
        throws(JanssonCodecError) -> LogEntry
    {
        let limit = clamped(maxDepth, envelope: lineEnvelope)
        return try withParsed(bytes, limit: limit + lineEnvelope) { (root, rewritten) throws(JanssonCodecError) in
            try logEntry(root.pointer, values: JanssonReader(maxDepth: limit, restoresKeyControls: rewritten))
        }
    }

    /// The keys LOG-FORMAT.md gives event lines; extras may not reuse them.
    public static let lineKeys: Set<String> = ["seq", "time", "store", "txn", "patches", "event", "version", "root"]

    /// A change line nests its values three levels down: line object, `patches` array, patch object.
    private static let lineEnvelope = 3

    private static func logEntry(_ line: UnsafeMutablePointer<json_t>, values: JanssonReader)
        throws(JanssonCodecError) -> LogEntry
    {
        guard kjs_typeof(line) == JSON_OBJECT else { throw .invalidLogLine("a line must be a JSON object") }
        guard let seqJSON = member(line, "seq"), kjs_typeof(seqJSON) == JSON_INTEGER,
            case let seq = Int64(json_integer_value(seqJSON)), seq >= 1
        else { throw .invalidLogLine("\"seq\" must be an integer of at least 1") }
        let timeText = try text(line, "time")
        let time: LogTime
        do {
            time = try LogTime.parse(Array(timeText.utf8))
        } catch {
            throw JanssonCodecError(.invalidTime, "\"time\": \(error.message)")
        }
        let storeText = try text(line, "store")
        // Recordings made before a store id was renamed still read (`StoreID.recorded(_:)`).
        guard let store = StoreID.recorded(storeText) else {
            throw .invalidLogLine("\"store\" is not a store id (<scope>/<storage>): \"\(storeText)\"")
        }
        if member(line, "event") != nil {
            return LogEntry(seq: seq, time: time, event: try storeEvent(line, store, values))
        }
        let transactionID: UUID?
        switch member(line, "txn").map({ kjs_typeof($0) }) {
        case nil, JSON_NULL?:
            transactionID = nil
        case JSON_STRING?:
            let txn = try text(line, "txn")
            guard let uuid = uuid(txn) else { throw .invalidLogLine("\"txn\" is not a UUID: \"\(txn)\"") }
            transactionID = uuid
        default:
            throw .invalidLogLine("\"txn\" must be a UUID string or null")
        }
        guard let patchesJSON = member(line, "patches"), kjs_typeof(patchesJSON) == JSON_ARRAY else {
            throw .invalidLogLine("a change needs \"patches\" as an array (or an \"event\" key for a store event)")
        }
        let patchReader = JanssonReader(maxDepth: values.maxDepth + 1, restoresKeyControls: values.restoresKeyControls)
        var patches: [StorePatch] = []
        patches.reserveCapacity(json_array_size(patchesJSON))
        for index in 0..<json_array_size(patchesJSON) {
            guard let patchJSON = json_array_get(patchesJSON, index) else { throw .missingChild() }
            do {
                patches.append(try patch(patchJSON, patchReader))
            } catch  where error.code == .invalidValue {
                throw .invalidLogLine("patch \(index + 1): \(error.message)")
            }
        }
        return LogEntry(
            seq: seq, time: time,
            event: .change(StoreChange(storeID: store, patches: patches, transactionID: transactionID)))
    }

    private static func storeEvent(_ line: UnsafeMutablePointer<json_t>, _ store: StoreID, _ values: JanssonReader)
        throws(JanssonCodecError) -> LogEvent
    {
        let kind = try text(line, "event")
        switch kind {
        case "registered":
            guard let rootJSON = member(line, "root") else {
                throw .invalidLogLine("a registered event needs \"root\"")
            }
            let root = try values.value(rootJSON)
            guard case .object = root else { throw .invalidLogLine("\"root\" must be an object, not \(root.typeName)") }
            return .registered(store, version: try version(line), root: root)
        case "reset":
            return .reset(store, version: try version(line))
        case "removed":
            return .removed(store)
        default:
            throw .invalidLogLine("unknown event kind \"\(kind)\" (expected registered, reset or removed)")
        }
    }

    private static func version(_ line: UnsafeMutablePointer<json_t>) throws(JanssonCodecError) -> SemanticVersion {
        let text = try text(line, "version")
        guard let version = SemanticVersion(parsing: text) else {
            throw .invalidLogLine("\"version\" is not a major.minor.patch version: \"\(text)\"")
        }
        return version
    }

    /// The member `name` of `object`, if present.
    private static func member(_ object: UnsafeMutablePointer<json_t>, _ name: StaticString)
        -> UnsafeMutablePointer<json_t>?
    {
        UnsafeRawPointer(name.utf8Start).withMemoryRebound(to: CChar.self, capacity: name.utf8CodeUnitCount) {
            json_object_getn(object, $0, name.utf8CodeUnitCount)
        }
    }

    /// The member `name` of `object`, which must be a string.
    private static func text(_ object: UnsafeMutablePointer<json_t>, _ name: StaticString) throws(JanssonCodecError)
        -> String
    {
        guard let json = member(object, name), kjs_typeof(json) == JSON_STRING else {
            throw .invalidLogLine("\"\(name)\" must be a string")
        }
        return try JanssonReader.string(json)
    }

    /// A jansson string from ASCII bytes made here (a time, a UUID).
    private static func string(_ bytes: [UInt8]) throws(JanssonCodecError) -> JanssonRef {
        let pointer = bytes.withUnsafeBufferPointer { JanssonText.string($0) }
        return try JanssonRef(taking: pointer, "a string")
    }

    /// The 36-character upper-case text of a UUID, as `UUID.uuidString` writes it, without Foundation's formatter.
    static func uuidBytes(_ uuid: UUID) -> [UInt8] {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(36)
        withUnsafeBytes(of: uuid.uuid) { raw in
            for (index, byte) in raw.enumerated() {
                if index == 4 || index == 6 || index == 8 || index == 10 { out.append(UInt8(ascii: "-")) }
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0xF)])
            }
        }
        return out
    }

    /// The UUID written as 36 characters `8-4-4-4-12` of hex digits in either case, as `UUID(uuidString:)` reads
    /// it, without Foundation's parser (which goes through `sscanf`).
    static func uuid(_ text: String) -> UUID? {
        Array(text.utf8).withUnsafeBufferPointer { uuid(bytes: $0) }
    }

    /// ``uuid(_:)`` over UTF-8 bytes in place.
    static func uuid(bytes utf8: UnsafeBufferPointer<UInt8>) -> UUID? {
        guard utf8.count == 36 else { return nil }
        var value: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let valid = withUnsafeMutableBytes(of: &value) { out -> Bool in
            var index = 0
            var written = 0
            while index < 36 {
                if index == 8 || index == 13 || index == 18 || index == 23 {
                    guard utf8[index] == UInt8(ascii: "-") else { return false }
                    index += 1
                    continue
                }
                guard let high = hexValue(utf8[index]), let low = hexValue(utf8[index + 1]) else { return false }
                out[written] = high << 4 | low
                written += 1
                index += 2
            }
            return true
        }
        return valid ? UUID(uuid: value) : nil
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        let value = hexDigits[Int(byte)]
        return value < 16 ? value : nil
    }

    /// The value of each byte as a hex digit, 0xFF for a byte that is not one.
    private static let hexDigits: [UInt8] = (0...255).map { byte in
        switch UInt8(byte) {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt8(byte) - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt8(byte) - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt8(byte) - UInt8(ascii: "A") + 10
        default: 0xFF
        }
    }
}
