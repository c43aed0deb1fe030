public import KeyscopeCore

extension JanssonCodec {
    /// The header line (line 1 of a recording) as compact JSON with sorted keys, without the final `\n`.
    ///
    /// ```swift
    /// try JanssonCodec.encode(header)
    /// // {"createdAt":"2026-11-21T10:00:00.000000Z","format":"keyscope-log","stores":[{"id":"app/memory",
    /// //  "root":{"cart":{"total":90}},"version":"1.4.0"}],"version":1}
    /// ```
    /// - Throws: ``JanssonCodecError``: ``JanssonCodecError/Code/invalidLogLine`` for a store root that is not an
    ///   object or an extra that reuses a contract key, or a depth or jansson error.
    public static func encode(_ header: RecordingHeader, maxDepth: Int = JSONLimits.defaultMaxDepth)
        throws(JanssonCodecError) -> [UInt8]
    {
        var object: [String: StoreValue] = header.extras
        for key in header.extras.keys where RecordingHeader.contractKeys.contains(key) {
            throw .invalidHeader("the header extra \"\(key)\" is one of the contract's keys")
        }
        object["format"] = .string(RecordingHeader.format)
        object["version"] = .integer(RecordingHeader.version)
        object["createdAt"] = .string(header.createdAt.rfc3339)
        if let source = header.source {
            var members: [String: StoreValue] = [:]
            if let name = source.name { members["name"] = .string(name) }
            if let host = source.host { members["host"] = .string(host) }
            if let pid = source.pid { members["pid"] = .integer(pid) }
            object["source"] = .object(members)
        }
        var stores: [StoreValue] = []
        stores.reserveCapacity(header.stores.count)
        for store in header.stores {
            guard store.root.objectValue != nil else {
                throw .invalidHeader("the root of store \(store.id) must be an object, not \(store.root.typeName)")
            }
            stores.append(
                .object([
                    "id": .string(store.id.description), "version": .string(store.version.description),
                    "root": store.root,
                ]))
        }
        object["stores"] = .array(stores)
        return try encode(.object(object), maxDepth: clamped(maxDepth, envelope: headerEnvelope) + headerEnvelope)
    }

    /// The header nests the stores' roots three levels down: header object, `stores` array, store object.
    private static let headerEnvelope = 3

    /// Reads a header line (docs/recording.md "Line 1"): `format` must be `"keyscope-log"`, `version` the integer 1,
    /// `createdAt` an RFC 3339 time, `stores` an array of `{"id", "version", "root"}` with object roots and no id
    /// twice; `source` is optional. Unknown keys are kept in ``RecordingHeader/extras``. A final `\n` may be
    /// included. A store id renamed since the header was written reads as its current form
    /// (``KeyscopeCore/StoreID/recorded(_:)``).
    ///
    /// - Throws: ``JanssonCodecError``: ``JanssonCodecError/Code/invalidLogLine`` naming what is wrong, or a JSON
    ///   or value error.
    public static func decodeRecordingHeader(
        _ bytes: some Collection<UInt8>, maxDepth: Int = JSONLimits.defaultMaxDepth
    ) throws(JanssonCodecError) -> RecordingHeader {
        let value = try decode(bytes, maxDepth: clamped(maxDepth, envelope: headerEnvelope) + headerEnvelope)
        guard case .object(var object) = value else {
            throw .invalidHeader("the header must be a JSON object, not \(value.typeName)")
        }
        guard case .string(let format)? = object["format"] else {
            throw .invalidHeader("the header needs \"format\": \"\(RecordingHeader.format)\"")
        }
        guard format == RecordingHeader.format else {
            throw .invalidHeader("\"format\" is \"\(format)\", not \"\(RecordingHeader.format)\"")
        }
        guard case .integer(let version)? = object["version"] else {
            throw .invalidHeader("the header needs \"version\" as the integer \(RecordingHeader.version)")
        }
        guard version == RecordingHeader.version else {
            throw .invalidHeader(
                "unknown log format version \(version) (this reader knows version \(RecordingHeader.version))")
        }
        guard case .string(let createdText)? = object["createdAt"] else {
            throw .invalidHeader("the header needs \"createdAt\" as an RFC 3339 time string")
        }
        let createdAt: LogTime
        do {
            createdAt = try LogTime.parse(Array(createdText.utf8))
        } catch {
            throw JanssonCodecError(.invalidTime, "\"createdAt\": \(error.message)")
        }
        let source = try recordingSource(object["source"])
        guard case .array(let storeValues)? = object["stores"] else {
            throw .invalidHeader("the header needs \"stores\" as an array")
        }
        var stores: [RecordingHeader.Store] = []
        var seen: Set<StoreID> = []
        for (index, storeValue) in storeValues.enumerated() {
            let store = try recordedStore(storeValue, index: index)
            guard seen.insert(store.id).inserted else {
                throw .invalidHeader("store \(store.id) is listed twice in \"stores\"")
            }
            stores.append(store)
        }
        for key in RecordingHeader.contractKeys { object[key] = nil }
        return RecordingHeader(createdAt: createdAt, source: source, stores: stores, extras: object)
    }

    private static func recordingSource(_ value: StoreValue?) throws(JanssonCodecError) -> RecordingHeader.Source? {
        guard let value else { return nil }
        guard case .object(let members) = value else {
            throw .invalidHeader("\"source\" must be an object, not \(value.typeName)")
        }
        var source = RecordingHeader.Source()
        switch members["name"] {
        case nil: break
        case .string(let name)?: source.name = name
        case let other?: throw .invalidHeader("\"source.name\" must be a string, not \(other.typeName)")
        }
        switch members["host"] {
        case nil: break
        case .string(let host)?: source.host = host
        case let other?: throw .invalidHeader("\"source.host\" must be a string, not \(other.typeName)")
        }
        switch members["pid"] {
        case nil: break
        case .integer(let pid)?: source.pid = pid
        case let other?: throw .invalidHeader("\"source.pid\" must be an integer, not \(other.typeName)")
        }
        return source
    }

    private static func recordedStore(_ value: StoreValue, index: Int) throws(JanssonCodecError)
        -> RecordingHeader.Store
    {
        guard case .object(let members) = value else {
            throw .invalidHeader("stores[\(index)] must be an object, not \(value.typeName)")
        }
        guard case .string(let idText)? = members["id"], let id = StoreID.recorded(idText) else {
            throw .invalidHeader("stores[\(index)] needs \"id\" as a store id (<scope>/<storage>)")
        }
        guard case .string(let versionText)? = members["version"], let version = SemanticVersion(parsing: versionText)
        else {
            throw .invalidHeader("store \(id) needs \"version\" as a major.minor.patch string")
        }
        guard let root = members["root"] else { throw .invalidHeader("store \(id) needs \"root\"") }
        guard root.objectValue != nil else {
            throw .invalidHeader("the root of store \(id) must be an object, not \(root.typeName)")
        }
        return RecordingHeader.Store(id: id, version: version, root: root)
    }
}
