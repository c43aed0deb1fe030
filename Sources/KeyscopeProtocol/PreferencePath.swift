/// The path form of a preference edit or delete, `PUT` and `DELETE /api/preferences/:source/:container/:key`
/// (docs/preferences.md, "Edits and deletes"): how a client writes a ``PreferenceRef`` as path segments, and how the
/// server reads them back. Server and clients share this one implementation.
///
/// ```swift
/// let theme = PreferenceRef(source: .userDefaults, container: "com.shop", key: "ui/theme")
/// PreferencePath.target(theme)                                          // "/api/preferences/userDefaults/com.shop/ui%2Ftheme"
/// try PreferencePath.ref(segments: ["userDefaults", "com.shop", "ui%2Ftheme"]) == theme   // true
/// try PreferencePath.source(named: "keychain")                          // bad_request: use userDefaults or secrets
/// ```
/// - Each segment is percent-decoded once, as ``TunePath`` does it: `%XX` (hex in either case) is that byte, every
///   other character stands for itself; the bytes must be UTF-8 without control characters (U+0000–U+001F,
///   U+007F), which a request line cannot carry intact. `%2F` is a `/` inside its segment, never a separator.
/// - `:source` is `userDefaults` or `secrets` (``PreferenceSource``, case-sensitive); `:container` (the suite or the
///   service) is not empty; `:key` is any text, the empty string included.
public enum PreferencePath {
    /// The Preferences panel: `GET /api/preferences`.
    public static let root = "/api/preferences"
    /// The rescan of every source: `POST /api/preferences/refresh`.
    public static let refresh = root + "/refresh"
    /// The Watches panel: `GET /api/watches`.
    public static let watches = "/api/watches"
    /// The re-read of every watched status: `POST /api/watches/refresh`.
    public static let watchesRefresh = watches + "/refresh"

    /// The request target that names `ref`: `/api/preferences/SOURCE/CONTAINER/KEY`, each part percent-encoded as
    /// one segment (``TunePath/encode(segment:)``), so a `/` in a container or key is sent as `%2F`.
    public static func target(_ ref: PreferenceRef) -> String {
        [root, ref.source.rawValue, TunePath.encode(segment: ref.container), TunePath.encode(segment: ref.key)]
            .joined(separator: "/")
    }

    /// The preference that the still-encoded segments after `/api/preferences/` name.
    ///
    /// - Throws: `bad_request` for a count other than three (a `/` inside a container or key must be `%2F`), a
    ///   segment that does not decode (see ``decode(segment:)``), an unknown source or an empty container.
    public static func ref(segments: [some StringProtocol]) throws(HubError) -> PreferenceRef {
        guard segments.count == 3 else {
            throw .badRequest(
                "\(root)/SOURCE/CONTAINER/KEY takes exactly three path segments after \(root), got "
                    + "\(segments.count); percent-encode a / inside a container or key as %2F")
        }
        let source = try source(named: try decode(segment: segments[0]))
        let container = try decode(segment: segments[1])
        let key = try decode(segment: segments[2])
        return try ref(source: source, container: container, key: key)
    }

    /// A ``PreferenceRef`` from decoded parts, with the checks that apply on every path (HTTP and WebSocket).
    ///
    /// - Throws: `bad_request` for an empty container.
    public static func ref(source: PreferenceSource, container: String, key: String) throws(HubError)
        -> PreferenceRef
    {
        guard !container.isEmpty else {
            throw .badRequest(
                "the container is empty: name the UserDefaults suite or the secret service (\"com.shop\")")
        }
        return PreferenceRef(source: source, container: container, key: key)
    }

    /// The source named `name`: `userDefaults` or `secrets`, exactly.
    ///
    /// - Throws: `bad_request` naming the two sources.
    public static func source(named name: String) throws(HubError) -> PreferenceSource {
        guard let source = PreferenceSource(rawValue: name) else {
            let names = PreferenceSource.allCases.map(\.rawValue).joined(separator: " or ")
            throw .badRequest("unknown preference source \"\(name)\"; use \(names)")
        }
        return source
    }

    /// Decodes one percent-encoded segment (see the type's notes).
    ///
    /// - Throws: `bad_request` for a `%` not followed by two hex digits, for bytes that are not UTF-8, and for a
    ///   control character; the message names the segment.
    public static func decode(segment: some StringProtocol) throws(HubError) -> String {
        try PathSegment.decode(segment, controlCharacterAdvice: "send such a key with the WebSocket preference request")
    }
}
