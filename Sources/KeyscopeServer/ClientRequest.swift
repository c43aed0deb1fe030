import KeyscopeCodec
import KeyscopeCore
import KeyscopeInspector
import KeyscopeProtocol

/// A client's request (docs/protocol.md "Client to server"), read from one WebSocket message or one `POST /api/request`
/// body and checked for shape; the hub checks the rest (store, paths, values against the state).
enum ClientRequest: Sendable {
    case write(store: String, HubWrite)
    case transaction(store: String, [HubWrite])
    case revert(seq: Int)
    /// docs/recording.md "Rewind": every change after `seq` undone.
    case rewind(seq: Int)
    case resync
    /// A request of a feature's type (``FeatureRequest``), with its members.
    case feature(FeatureRequest, RequestMembers)

    /// Why a message is not a request, with the `id` to echo when one could be read.
    struct Refusal: Error, Sendable, Hashable {
        var id: StoreValue
        var error: HubError
    }

    /// The built-in request types that change state (refused by a read-only server before anything else is
    /// checked); a feature's request says itself whether it writes (``FeatureRequest/writes``).
    static let writeTypes: Set<String> = ["write", "transaction", "revert", "rewind"]

    /// The built-in request types, in the order the unknown-type message lists them.
    static let builtInTypes = ["write", "transaction", "revert", "rewind", "resync"]

    /// Reads a message: its `id` (a string or number; `null` when missing) and its request, one of the built-in
    /// types or of `features`. With `refusingWrites`, a request that writes fails with that error before its other
    /// members are looked at.
    static func parse(
        _ bytes: [UInt8], maxDepth: Int, features: [FeatureRequest] = [], refusingWrites: HubError? = nil
    ) -> (id: StoreValue, request: Result<ClientRequest, HubError>) {
        let members: [String: Result<StoreValue, JanssonCodecError>]
        do {
            guard let object = try JanssonCodec.decodeMembers(bytes, maxDepth: maxDepth) else {
                return (.null, .failure(HubError(code: .badJSON, message: "a request must be a JSON object")))
            }
            members = object
        } catch {
            return (.null, .failure(HubError(code: .badJSON, message: "the message is not valid JSON: \(error)")))
        }
        let id: StoreValue
        switch members["id"] {
        case .success(let value)? where value.isString || value.isNumeric: id = value
        case nil: id = .null
        default:
            return (.null, .failure(.badRequest("\"id\" must be a string or a number")))
        }
        let typed = RequestMembers(
            members.mapValues { member in
                switch member {
                case .success(let value): .value(value)
                case .failure(let error): .invalid(error.message)
                }
            })
        let type = typed.peekString("type")
        let feature = type.flatMap { type in features.first { $0.type == type } }
        if let refusal = refusingWrites, let type,
            writeTypes.contains(type) || feature?.writes(typed) == true
        {
            return (id, .failure(refusal))
        }
        if let feature { return (id, .success(.feature(feature, typed))) }
        return (id, Result { () throws(HubError) in try request(members, featureTypes: features.map(\.type)) })
    }

    private static func request(
        _ members: [String: Result<StoreValue, JanssonCodecError>], featureTypes: [String]
    ) throws(HubError) -> ClientRequest {
        let reader = MemberReader(members: members)
        let type = try reader.string("type")
        switch type {
        case "write":
            let store = try reader.string("store")
            let write = HubWrite(
                op: try reader.string("op"), path: try reader.string("path"), value: try reader.value())
            return .write(store: store, write)
        case "transaction":
            let store = try reader.string("store")
            guard case .array(let list) = try reader.required("ops") else {
                throw .badRequest("\"ops\" must be an array of {\"op\", \"path\", \"value\"} objects")
            }
            var writes: [HubWrite] = []
            for (index, element) in list.enumerated() {
                guard case .object(let op) = element else { throw .badRequest("ops[\(index)] must be an object") }
                writes.append(try MemberReader.write(op, context: "ops[\(index)]"))
            }
            return .transaction(store: store, writes)
        case "revert":
            guard case .integer(let seq) = try reader.required("seq"), seq > 0, let exact = Int(exactly: seq) else {
                throw .badRequest("\"seq\" must be a positive integer: the seq of the change to revert")
            }
            return .revert(seq: exact)
        case "rewind":
            return .rewind(seq: try rewindSeq(try reader.required("seq")))
        case "resync":
            return .resync
        default:
            throw HubError(
                code: .unknownType,
                message: "unknown request type \"\(type)\"; use " + orList(builtInTypes + featureTypes))
        }
    }

    /// `a, b or c`.
    private static func orList(_ names: [String]) -> String {
        guard let last = names.last, names.count > 1 else { return names.first ?? "" }
        return names.dropLast().joined(separator: ", ") + " or " + last
    }

    /// The `seq` of a rewind (the WebSocket request's member, or `POST /api/rewind`'s): an integer, 0 or more.
    static func rewindSeq(_ value: StoreValue?) throws(HubError) -> Int {
        guard let value else { throw .badRequest("the request needs \"seq\": the seq to rewind to") }
        guard case .integer(let seq) = value, seq >= 0, let exact = Int(exactly: seq) else {
            throw .badRequest("\"seq\" must be an integer, 0 or more: the seq whose state to go back to")
        }
        return exact
    }
}

/// Reads typed members of a request object, with errors that name the member.
private struct MemberReader {
    let members: [String: Result<StoreValue, JanssonCodecError>]

    func required(_ key: String) throws(HubError) -> StoreValue {
        switch members[key] {
        case .success(let value)?: return value
        case .failure(let error)?: throw HubError(code: .typeMismatch, message: "\"\(key)\": \(error.message)")
        case nil: throw .badRequest("the request needs \"\(key)\"")
        }
    }

    func string(_ key: String) throws(HubError) -> String {
        guard case .string(let text) = try required(key) else { throw .badRequest("\"\(key)\" must be a string") }
        return text
    }

    /// A string member, with a `hint` of what it holds in the errors (`"op" must be a string: set, delete or …`).
    func string(_ key: String, hint: String) throws(HubError) -> String {
        switch members[key] {
        case .success(.string(let text))?: return text
        case nil: throw .badRequest("the request needs \"\(key)\": \(hint)")
        default: throw .badRequest("\"\(key)\" must be a string: \(hint)")
        }
    }

    /// The `value` member: `nil` when absent; a value that is not a valid StoreValue is `type_mismatch`.
    func value() throws(HubError) -> StoreValue? {
        switch members["value"] {
        case .success(let value)?: return value
        case .failure(let error)?:
            throw HubError(code: .typeMismatch, message: "\"value\" is not a valid value: \(error.message)")
        case nil: return nil
        }
    }

    /// One element of a transaction's `ops` (already decoded with the rest of `ops`).
    static func write(_ op: [String: StoreValue], context: String) throws(HubError) -> HubWrite {
        guard case .string(let name)? = op["op"] else { throw .badRequest("\(context): \"op\" must be a string") }
        guard case .string(let path)? = op["path"] else { throw .badRequest("\(context): \"path\" must be a string") }
        return HubWrite(op: name, path: path, value: op["value"])
    }
}

extension StoreValue {
    fileprivate var isString: Bool {
        if case .string = self { return true }
        return false
    }

    fileprivate var isNumeric: Bool {
        switch self {
        case .integer: true
        case .number(let value): value.isFinite
        default: false
        }
    }
}
