/// The stored type of a preference, as the Preferences panel names it (docs/preferences.md, "The panel").
///
/// A UserDefaults suite holds property-list values; each is shown as a ``KeyscopeCore/StoreValue`` of one of these
/// types. Dates are shown as ISO 8601 strings and data as base64 strings; edits of those keys send the same forms
/// back.
///
/// ```swift
/// let item = repository.items(source: .userDefaults).first { $0.key == "lastLaunch" }
/// item?.type        // .date
/// item?.value       // "2026-11-21T10:00:00.000000Z"
/// ```
public enum PreferenceValueType: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case string
    case integer
    case number
    case bool
    /// A property-list date, shown as an ISO 8601 string (UTC, six fractional digits).
    case date
    /// Bytes, shown as a base64 string (for secrets: bytes that are not UTF-8 text).
    case data
    case array
    case object

    public var description: String { rawValue }
}
