import KeyscopeCodec
public import KeyscopeCore
public import KeyscopeProtocol
import KeyscopeServer
import Synchronization

extension FleetView {
    /// Sends a client's request (its JSON object as sent) to one instance; `completion` gets the `reply` message
    /// for the client: the instance's own, or `unavailable` when it did not answer in time. Runs on one of the
    /// view's threads.
    public func send(_ request: [UInt8], to instance: String, completion: @escaping @Sendable ([UInt8]) -> Void) {
        let object = FleetMessages.members(request) ?? [:]
        let id = object["id"] ?? .null
        if let refusal = FleetSecretGuard.refusal(for: object) {
            completion(ServerMessages.reply(id: id, error: refusal))
            return
        }
        guard let known = self.instance(instance) else {
            completion(ServerMessages.reply(id: id, error: Self.unknownInstance(instance)))
            return
        }
        guard known.isLive else {
            let why =
                "instance \(instance) is gone (last seen \(known.presence.lastSeen.rfc3339)); its last state stays readable"
            completion(ServerMessages.reply(id: id, error: HubError(code: .unavailable, message: why)))
            return
        }
        requests.send(request, to: instance) { answer in
            completion(Self.replyMessage(id: id, answer: answer))
        }
    }

    /// Sends a client's request to every live instance; `completion` gets one `reply` whose result holds each
    /// instance's answer: `{"instances": {"shop-1": {"ok": true, "result": …}, "shop-2": {"ok": false, "error":
    /// …}}}`. With no live instance, the result's `instances` is empty.
    public func broadcast(_ request: [UInt8], completion: @escaping @Sendable ([UInt8]) -> Void) {
        let object = FleetMessages.members(request) ?? [:]
        let id = object["id"] ?? .null
        if let refusal = FleetSecretGuard.refusal(for: object) {
            completion(ServerMessages.reply(id: id, error: refusal))
            return
        }
        let targets = instances().filter(\.isLive).map(\.id)
        guard !targets.isEmpty else {
            completion(Self.broadcastReply(id: id, answers: [:]))
            return
        }
        let collected = Mutex<[String: StoreValue]>([:])
        for target in targets {
            requests.send(request, to: target) { answer in
                let done = collected.withLock { answers -> [String: StoreValue]? in
                    answers[target] = Self.outcome(answer)
                    return answers.count == targets.count ? answers : nil
                }
                if let done { completion(Self.broadcastReply(id: id, answers: done)) }
            }
        }
    }

    /// `unknown_instance`, naming the instances there are.
    public func unknownInstanceError(_ id: String) -> HubError {
        Self.unknownInstance(id, known: instances().map(\.id))
    }

    static func unknownInstance(_ id: String, known: [String] = []) -> HubError {
        let listed = known.isEmpty ? "" : " (instances: \(known.joined(separator: ", ")))"
        return HubError(
            code: .unknownInstance, message: "no instance \"\(id)\" in this fleet\(listed); see GET /api/fleet")
    }

    static func replyMessage(id: StoreValue, answer: FleetAnswer) -> [UInt8] {
        switch answer {
        case .reply(let reply): reply.jsonBytes(sortedKeys: true)
        case .unavailable(let why): ServerMessages.reply(id: id, error: HubError(code: .unavailable, message: why))
        }
    }

    /// One instance's part of a broadcast's result: its reply without `type` and `id`.
    private static func outcome(_ answer: FleetAnswer) -> StoreValue {
        switch answer {
        case .reply(let reply):
            guard var object = reply.objectValue else { return reply }
            object["type"] = nil
            object["id"] = nil
            return .object(object)
        case .unavailable(let why):
            return .object([
                "ok": false,
                "error": .object(["code": .string(HubError.Code.unavailable.rawValue), "message": .string(why)]),
            ])
        }
    }

    private static func broadcastReply(id: StoreValue, answers: [String: StoreValue]) -> [UInt8] {
        StoreValue.object([
            "type": "reply", "id": id, "ok": true, "result": .object(["instances": .object(answers)]),
        ]).jsonBytes(sortedKeys: true)
    }
}
