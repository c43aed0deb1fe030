import Foundation
package import KeyscopeCore
import KeyscopeInspector
package import KeyscopeProtocol

/// The server-to-client messages that are not the hub's (`hello`, `reply`); HTTP error bodies are ``KeyscopeLws/Refusal``'s.
package enum ServerMessages {
    /// `{"type":"hello","protocol":1,"server":{"name","version","pid"},"readOnly":…,"resumed":…}`.
    /// `extra` adds members (or replaces them: a feature's stream may say `readOnly` itself).
    static func hello(name: String, readOnly: Bool, resumed: Bool, extra: [String: StoreValue] = [:]) -> [UInt8] {
        var members: [String: StoreValue] = [
            "type": "hello", "protocol": .integer(Int64(InspectorProtocol.version)),
            "server": .object([
                "name": .string(name), "version": .string(InspectorProtocol.packageVersion),
                "pid": .integer(Int64(ProcessInfo.processInfo.processIdentifier)),
            ]),
            "readOnly": .bool(readOnly), "resumed": .bool(resumed),
        ]
        for (key, value) in extra where key != "type" && key != "protocol" { members[key] = value }
        return StoreValue.object(members).jsonBytes(sortedKeys: true)
    }

    /// `{"type":"reply","id":…,"ok":true,"result":…}`.
    package static func reply(id: StoreValue, result: StoreValue) -> [UInt8] {
        StoreValue.object(["type": "reply", "id": id, "ok": true, "result": result]).jsonBytes(sortedKeys: true)
    }

    /// `{"type":"reply","id":…,"ok":false,"error":{"code":…,"message":…}}`.
    package static func reply(id: StoreValue, error: HubError) -> [UInt8] {
        StoreValue.object([
            "type": "reply", "id": id, "ok": false,
            "error": .object(["code": .string(error.code.rawValue), "message": .string(error.message)]),
        ]).jsonBytes(sortedKeys: true)
    }

}
