import KeyscopeClient
import KeyscopeCore

/// What the client commands do differently against a fleet dashboard (`--instance`, docs/fleet.md).
enum FleetReplies {
    /// Fails when `--instance` was given but the server is not a fleet dashboard (its `hello` names no instance):
    /// a server of one process ignores the parameter, and its own state would be taken for the instance's.
    static func checkFleet(_ hello: StoreValue, options: ClientOptions, endpoint: InspectorEndpoint) throws {
        guard let instance = options.instance, hello["instance"] == nil else { return }
        throw CommandFailure(
            "--instance \(instance): \(endpoint) is not a fleet dashboard (its server is "
                + "\(hello["server"]?["name"]?.stringValue ?? "unnamed")); point --port or --url at a `keyscope fleet`")
    }

    /// The lines of a reply to a request sent to every instance (`"instance": "*"`): one per instance, `ID: ok seq N`
    /// or `ID: error CODE: MESSAGE`, sorted by id; and whether every instance succeeded.
    static func lines(_ reply: InspectorReply, success: (InspectorReply) -> String) -> (lines: [String], allOK: Bool) {
        guard let answers = reply.result?["instances"]?.objectValue else {
            return (["error: the fleet dashboard's reply holds no per-instance answers"], false)
        }
        guard !answers.isEmpty else { return (["no live instance in the fleet"], false) }
        var lines: [String] = []
        var allOK = true
        for (id, answer) in answers.sorted(by: { $0.key < $1.key }) {
            let one = InspectorReply(message: answer)
            if let error = one.error {
                allOK = false
                lines.append("\(id): error \(error.code): \(error.message)")
            } else {
                lines.append("\(id): \(success(one))")
            }
        }
        return (lines, allOK)
    }
}
