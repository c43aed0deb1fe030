public import KeyscopeCore
public import KeyscopeProtocol

/// The members of one client request (`{"id": 1, "type": "tune", "key": "k", "value": 5}`), each decoded on its own,
/// with typed reads whose errors name the member.
///
/// ```swift
/// let key = try members.string("key")                          // bad_request: "key" must be a string
/// let op = try members.string("op", hint: "set or remove")     // … with what it holds in the message
/// let value = try members.value()                              // the "value" member, nil when absent
/// ```
public struct RequestMembers: Sendable {
    /// One member: its value, or why it is not a valid value (too deep, a number out of range…).
    public enum Member: Sendable, Hashable {
        case value(StoreValue)
        case invalid(String)
    }

    public let members: [String: Member]

    public init(_ members: [String: Member]) { self.members = members }

    /// Whether the request has the member `key` (valid or not).
    public func has(_ key: String) -> Bool { members[key] != nil }

    /// The member `key`: `bad_request` when absent, `type_mismatch` when it is not a valid value.
    public func required(_ key: String) throws(HubError) -> StoreValue {
        switch members[key] {
        case .value(let value)?: return value
        case .invalid(let why)?: throw HubError(code: .typeMismatch, message: "\"\(key)\": \(why)")
        case nil: throw .badRequest("the request needs \"\(key)\"")
        }
    }

    /// A string member.
    public func string(_ key: String) throws(HubError) -> String {
        guard case .string(let text) = try required(key) else { throw .badRequest("\"\(key)\" must be a string") }
        return text
    }

    /// A string member, with a `hint` of what it holds in the errors (`"op" must be a string: set, delete or …`).
    public func string(_ key: String, hint: String) throws(HubError) -> String {
        switch members[key] {
        case .value(.string(let text))?: return text
        case nil: throw .badRequest("the request needs \"\(key)\": \(hint)")
        default: throw .badRequest("\"\(key)\" must be a string: \(hint)")
        }
    }

    /// The `value` member: `nil` when absent; a value that is not a valid StoreValue is `type_mismatch`.
    public func value() throws(HubError) -> StoreValue? {
        switch members["value"] {
        case .value(let value)?: return value
        case .invalid(let why)?: throw HubError(code: .typeMismatch, message: "\"value\" is not a valid value: \(why)")
        case nil: return nil
        }
    }

    /// The member `key` when it is a string (for deciding before reading: an `op`), else `nil`.
    public func peekString(_ key: String) -> String? {
        guard case .value(.string(let text))? = members[key] else { return nil }
        return text
    }
}
