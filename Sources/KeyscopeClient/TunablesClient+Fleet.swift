public import KeyscopeCore
import KeyscopeProtocol

/// Tunables of every live instance of a fleet at once, through its dashboard (`POST /api/request?instance=*` with a
/// `tune` request, docs/fleet.md): each instance answers for itself.
///
/// ```swift
/// let answers = try TunablesClient(endpoint: fleet).setEverywhere(key: "toolbar_height", text: "64")
/// // ["shop-1": .success(Result(seq: 41, value: 64, count: nil)), "shop-2": .failure(read_only: …)]
/// ```
extension TunablesClient {
    /// Each instance's answer, by instance id.
    public typealias Answers = [String: Swift.Result<Result, TunablesClientError>]

    /// Sets one tunable from text on every live instance, as ``set(key:text:)`` does on one.
    public func setEverywhere(key: String, text: String) throws(TunablesClientError) -> Answers {
        try everywhere(["type": "tune", "key": .string(key), "text": .string(text)])
    }

    /// Replaces every tunable on every live instance, as ``replace(with:)`` does on one.
    public func replaceEverywhere(with values: [String: StoreValue]) throws(TunablesClientError) -> Answers {
        try everywhere(["type": "tune", "op": "replace", "values": .object(values)])
    }

    private func everywhere(_ request: [String: StoreValue]) throws(TunablesClientError) -> Answers {
        let reply = try exchange(
            "POST", "/api/request?instance=*", body: StoreValue.object(request).jsonBytes(sortedKeys: true))
        guard case .object(let instances)? = reply["result"]?["instances"] else {
            throw TunablesClientError(
                reply: "POST /api/request?instance=* answered without per-instance answers; is "
                    + "\(http.endpoint.hostHeader) a fleet dashboard (keyscope fleet)?")
        }
        var answers: Answers = [:]
        for (id, answer) in instances {
            if answer["ok"] == .bool(true) {
                let result = answer["result"] ?? .null
                answers[id] = .success(
                    Result(
                        seq: result["seq"]?.integerValue.map { Int($0) }, value: result["value"],
                        count: result["count"]?.integerValue.map { Int($0) }))
            } else {
                let code = answer["error"]?["code"]?.stringValue ?? HubError.Code.unavailable.rawValue
                answers[id] = .failure(
                    TunablesClientError(
                        code: code, message: answer["error"]?["message"]?.stringValue ?? "no answer",
                        httpStatus: HubError.Code(rawValue: code).httpStatus))
            }
        }
        return answers
    }
}
