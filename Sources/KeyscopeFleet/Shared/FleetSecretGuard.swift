import KeyscopeCore
import KeyscopeProtocol

/// Refuses a request that would carry a secret's new value through Redis (docs/fleet.md "Security": secrets never
/// cross Redis, in either direction): a write or transaction to a secret store, a `preference` set of a secret, or a
/// carried `PUT /api/preferences/secrets/…`. The dashboard checks before it sends, so the value never reaches
/// Redis; the instance checks again for a dashboard of another version.
enum FleetSecretGuard {
    static func refusal(for request: [String: StoreValue]) -> HubError? {
        let carriesSecret: Bool
        switch request["type"]?.stringValue {
        case "write", "transaction":
            carriesSecret = request["store"]?.stringValue.flatMap(StoreID.init).map(SecretRedaction.isSecret) ?? false
        case "preference":
            carriesSecret =
                request["source"] == .string(PreferenceSource.secrets.rawValue)
                && (request["op"]?.stringValue ?? "set") == "set"
        case FleetRouteRequest.type:
            let secrets = PreferencePath.root + "/" + PreferenceSource.secrets.rawValue + "/"
            carriesSecret = request["method"] == "PUT" && (request["path"]?.stringValue?.hasPrefix(secrets) ?? false)
        default:
            carriesSecret = false
        }
        guard carriesSecret else { return nil }
        return HubError(
            code: .readOnly,
            message: "a secret's new value is not sent through the fleet (secrets never cross Redis); change it on "
                + "the instance's own dashboard")
    }
}
