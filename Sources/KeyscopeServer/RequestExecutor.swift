import KeyscopeCore
import KeyscopeInspector
import KeyscopeProtocol

/// Carries out one client request against the hub: the single validated way from a client back into the stores,
/// for WebSocket messages and `POST /api/request` alike.
struct RequestExecutor: Sendable {
    let hub: InspectorHub
    let readOnly: Bool
    let maxJSONDepth: Int

    /// What to send back: the reply, and for `resync` the snapshot to send before it.
    struct Outcome {
        var id: StoreValue
        /// `nil` when the request succeeded.
        var error: HubError?
        var reply: [UInt8]
        /// Set by `resync`; a WebSocket session sends it and moves its cursor (see ``HubCursor/resync()``).
        var wantsResync: Bool = false
    }

    /// Parses and executes one message. Read-only servers refuse writes before looking further (PROTOCOL.md).
    func execute(_ bytes: [UInt8]) -> Outcome {
        let (id, parsed) = ClientRequest.parse(
            bytes, maxDepth: maxJSONDepth, refusingWrites: readOnly ? Self.readOnlyError : nil)
        let request: ClientRequest
        switch parsed {
        case .success(let value): request = value
        case .failure(let error): return failure(id, error)
        }
        do throws(HubError) {
            switch request {
            case .write(let store, let write):
                try refuseIfReadOnly()
                let result = try hub.writeReporting(
                    store: store, op: write.op, path: write.path, value: write.value)
                return success(id, result.jsonObject)
            case .transaction(let store, let writes):
                try refuseIfReadOnly()
                return success(id, ServerMessages.seqResult(try hub.transaction(store: store, ops: writes)))
            case .revert(let seq):
                try refuseIfReadOnly()
                return success(id, ServerMessages.seqResult(try hub.revert(seq: seq)))
            case .rewind(let seq):
                try refuseIfReadOnly()
                return success(id, try hub.rewind(toSeq: seq).jsonObject)
            case .resync:
                var outcome = success(id, .object([:]))
                outcome.wantsResync = true
                return outcome
            case .tune(let key, let value):
                try refuseIfReadOnly()
                return success(id, ServerMessages.seqResult(try hub.tune(key: key, value: value)))
            case .removeTunable(let key):
                try refuseIfReadOnly()
                return success(id, ServerMessages.seqResult(try hub.removeTunable(key: key)))
            case .preference(.set(let ref, let value)):
                try refuseIfReadOnly()
                return success(id, ServerMessages.seqResult(try hub.updatePreference(ref, value: value)))
            case .preference(.delete(let ref)):
                try refuseIfReadOnly()
                return success(id, ServerMessages.seqResult(try hub.deletePreference(ref)))
            case .preference(.refresh):
                try hub.refreshPreferences()
                return success(id, ServerMessages.seqResult(nil))
            }
        } catch {
            return failure(id, error)
        }
    }

    static let readOnlyError = HubError(
        code: .readOnly,
        message: "the inspector is read-only and refuses every write (`keyscope serve --read-only`, "
            + "`keyscope replay --serve` or HubOptions(readOnly: true)); write to a server that takes writes")

    private func refuseIfReadOnly() throws(HubError) {
        if readOnly { throw Self.readOnlyError }
    }

    private func success(_ id: StoreValue, _ result: StoreValue) -> Outcome {
        Outcome(id: id, error: nil, reply: ServerMessages.reply(id: id, result: result))
    }

    private func failure(_ id: StoreValue, _ error: HubError) -> Outcome {
        Outcome(id: id, error: error, reply: ServerMessages.reply(id: id, error: error))
    }
}
