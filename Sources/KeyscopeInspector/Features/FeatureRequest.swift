public import KeyscopeCore
public import KeyscopeProtocol

/// One request type of an ``InspectorFeature`` on the WebSocket and `POST /api/request` (`{"id": 1, "type": "tune",
/// …}`): the server reads the message, answers `{"type": "reply", "id": …, "ok": true, "result": <what the handler
/// returns>}`, or the error the handler throws.
///
/// ```swift
/// FeatureRequest("tune", writes: .always) { members in
///     let key = try members.string("key")
///     return .object(["seq": …])
/// }
/// ```
public struct FeatureRequest: Sendable {
    /// Which messages of a request type change state: a read-only server refuses those (`read_only`) before the
    /// handler runs.
    public enum Writes: Sendable {
        case always
        case never
        /// Those for which the test holds (a `preference` request writes unless its `op` is `refresh`).
        case when(@Sendable (RequestMembers) -> Bool)
    }

    /// The request's `type`.
    public let type: String
    public let writesWhen: Writes
    public let handle: @Sendable (RequestMembers) throws(HubError) -> StoreValue

    public init(
        _ type: String, writes: Writes, handle: @escaping @Sendable (RequestMembers) throws(HubError) -> StoreValue
    ) {
        self.type = type
        self.writesWhen = writes
        self.handle = handle
    }

    /// Whether this message changes state.
    public func writes(_ members: RequestMembers) -> Bool {
        switch writesWhen {
        case .always: true
        case .never: false
        case .when(let test): test(members)
        }
    }
}
