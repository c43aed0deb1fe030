package import KeyscopeCore
package import KeyscopeInspector
package import KeyscopeProtocol

/// Carries out one client request against the hub: the single validated way from a client back into the stores,
/// for WebSocket messages and `POST /api/request` alike (and requests that reach an instance through its fleet).
/// Runs on the server's ``RequestWorker``.
package struct RequestExecutor: Sendable {
    let hub: InspectorHub
    let readOnly: Bool
    let maxJSONDepth: Int

    package init(hub: InspectorHub, readOnly: Bool, maxJSONDepth: Int) {
        self.hub = hub
        self.readOnly = readOnly
        self.maxJSONDepth = maxJSONDepth
    }

    /// What to send back: the reply, and for `resync` the snapshot to send before it.
    package struct Outcome {
        package var id: StoreValue
        /// `nil` when the request succeeded.
        package var error: HubError?
        package var reply: [UInt8]
        /// Set by `resync`; a WebSocket session sends it and moves its cursor (see ``HubCursor/resync()``).
        package var wantsResync: Bool = false
    }

    /// Parses and executes one message. Read-only servers refuse writes before looking further (docs/protocol.md).
    /// `decoded` runs once the message is parsed, before the request is carried out.
    package func execute(_ bytes: [UInt8], decoded: () -> Void = {}) -> Outcome {
        let (id, parsed) = ClientRequest.parse(
            bytes, maxDepth: maxJSONDepth, features: hub.featureRequests,
            refusingWrites: isReadOnly ? hub.readOnlyRefusal : nil)
        decoded()
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
                return success(id, InspectorProtocol.seqResult(try hub.transaction(store: store, ops: writes)))
            case .revert(let seq):
                try refuseIfReadOnly()
                return success(id, InspectorProtocol.seqResult(try hub.revert(seq: seq)))
            case .rewind(let seq):
                try refuseIfReadOnly()
                return success(id, try hub.rewind(toSeq: seq).jsonObject)
            case .resync:
                var outcome = success(id, .object([:]))
                outcome.wantsResync = true
                return outcome
            case .feature(let feature, let members):
                if feature.writes(members) { try refuseIfReadOnly() }
                return success(id, try feature.handle(members))
            }
        } catch {
            return failure(id, error)
        }
    }

    /// Whether writes are refused: the server's option or the hub's.
    private var isReadOnly: Bool { readOnly || hub.options.readOnly }

    private func refuseIfReadOnly() throws(HubError) {
        if isReadOnly { throw hub.readOnlyRefusal }
    }

    private func success(_ id: StoreValue, _ result: StoreValue) -> Outcome {
        Outcome(id: id, error: nil, reply: ServerMessages.reply(id: id, result: result))
    }

    private func failure(_ id: StoreValue, _ error: HubError) -> Outcome {
        Outcome(id: id, error: error, reply: ServerMessages.reply(id: id, error: error))
    }
}
