import FuzzSupport
import KeyscopeCodec
import KeyscopeCore
import KeyscopeInspector

@testable import KeyscopeServer

/// The request dispatcher (`RequestExecutor`, what a WebSocket message and `POST /api/request` go through): one
/// client message in, one reply out, against a real hub with two stores and a short history (so that `revert` and
/// `rewind` have changes to work on). Each input gets a fresh hub, so a crash replays from its input alone.
/// Properties (docs/protocol.md, docs/protocol.md "Client-to-server requests" and "Error codes"):
/// - the reply is one JSON object `{"type":"reply","id","ok",…}` that both readers accept, and `ok` is false
///   exactly when the executor reports an error, whose `code` is a documented one and whose `message` is not empty;
/// - `id` is the request's `id` when it is a string or a number, else `null`;
/// - a refused request changes nothing (the snapshot, seq included, is the same after it);
/// - a read-only server changes nothing, whatever it is sent;
/// - a `seq` in a result is the hub's newest seq; `{"seq": null}` means nothing was recorded.
@main
enum RequestFuzzer {
    static func main() {
        FuzzDriver.run { bytes in check(Array(bytes)) }
    }

    static let errorCodes: Set<String> = [
        "bad_json", "bad_request", "unknown_type", "unknown_store", "bad_path", "type_mismatch", "out_of_range",
        "unknown_key", "no_tunables", "no_preferences", "no_watches", "no_recordings", "read_only", "conflict",
        "too_large",
    ]

    /// The server's own nesting limit (a store's 512 levels and the request's wrapping), so that values at the
    /// store's limit reach the hub.
    static let maxDepth = ServerOptions().maxJSONDepth

    static func check(_ message: [UInt8]) {
        let hub = FuzzHub.make()
        defer { hub.stop() }
        let readOnly = RequestExecutor(hub: hub, readOnly: true, maxJSONDepth: maxDepth)
        let executor = RequestExecutor(hub: hub, readOnly: false, maxJSONDepth: maxDepth)
        let expectedID = requestID(message)

        let start = hub.snapshot()
        let refused = readOnly.execute(message)
        checkReply(refused, id: expectedID)
        FuzzCheck.expect(hub.snapshot() == start, "a read-only server changed its stores")

        let outcome = executor.execute(message)
        let result = checkReply(outcome, id: expectedID)
        let end = hub.snapshot()
        guard let result else {
            FuzzCheck.expect(end == start, "a refused request (\(outcome.error!)) changed the stores")
            return
        }
        if case .object(let members) = result, let seq = members["seq"] {
            switch seq {
            case .null: FuzzCheck.expect(end == start, "the result says {\"seq\": null}, yet the stores changed")
            case .integer(let n): FuzzCheck.expect(Int(n) == hub.lastSeq, "result seq \(n), hub at \(hub.lastSeq)")
            default: FuzzCheck.expect(false, "result seq \(seq)")
            }
        }
    }

    /// The `id` a reply must echo: the request's when it is a string or a number, else `null`.
    static func requestID(_ message: [UInt8]) -> StoreValue {
        guard let members = try? JanssonCodec.decodeMembers(message, maxDepth: maxDepth),
            case .success(let id)? = members["id"]
        else {
            return .null
        }
        switch id {
        case .string, .integer, .number: return id
        default: return .null
        }
    }

    /// Checks the reply's shape; returns its `result` (nil for an error reply).
    @discardableResult
    static func checkReply(_ outcome: RequestExecutor.Outcome, id: StoreValue) -> StoreValue? {
        let text = String(decoding: outcome.reply, as: UTF8.self)
        let reply = FuzzCheck.success("decoding the reply \(text)") { try JanssonCodec.decode(outcome.reply) }
        FuzzCheck.expect((try? StoreValue(jsonBytes: outcome.reply)) == reply, "the core reads the reply otherwise")
        guard case .object(let members) = reply, members["type"] == "reply", case .bool(let ok)? = members["ok"]
        else {
            FuzzCheck.expect(false, "not a reply: \(text)")
            return nil
        }
        FuzzCheck.expect(members["id"] == id, "the reply's id is not \(id): \(text)")
        FuzzCheck.expect(ok == (outcome.error == nil), "ok is \(ok), the error \(String(describing: outcome.error))")
        guard ok else {
            guard case .object(let error)? = members["error"], case .string(let code)? = error["code"],
                case .string(let message)? = error["message"]
            else {
                FuzzCheck.expect(false, "an error reply without code and message: \(text)")
                return nil
            }
            FuzzCheck.expect(errorCodes.contains(code), "undocumented error code \(code)")
            FuzzCheck.expect(!message.isEmpty, "an error without a message: \(text)")
            FuzzCheck.expect(members.count == 4, "an error reply with other members: \(text)")
            return nil
        }
        FuzzCheck.expect(members.count == 4 && members["result"] != nil, "a success reply without result: \(text)")
        return members["result"]
    }
}
