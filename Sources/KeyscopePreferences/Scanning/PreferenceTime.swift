import Foundation
import KeyscopeCodec

/// Times in the form the inspector's log uses: RFC 3339 in UTC with six fractional digits,
/// `2026-11-21T10:00:00.125000Z`. Used for the panel's timestamps and for `date` preference values.
enum PreferenceTime {
    private static let wholeSeconds = Date.ISO8601FormatStyle()

    /// `date` rounded to the nearest microsecond (``KeyscopeCodec/LogTime``); whole seconds outside the years
    /// 0000–9999, which the log's form cannot hold.
    static func format(_ date: Date) -> String {
        LogTime(date)?.rfc3339 ?? wholeSeconds.format(date)
    }

    /// An ISO 8601 time with a time zone (`Z` or `±hh:mm`), with or without a fraction of a second (every digit
    /// of it is kept); `nil` for anything else.
    static func parse(_ text: String) -> Date? {
        guard text.utf8.count >= 20 else { return nil }
        var wholeText = text
        var fraction = 0.0
        if let dot = text.firstIndex(of: ".") {
            let rest = text[text.index(after: dot)...]
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            guard !digits.isEmpty, let value = Double("0." + digits) else { return nil }
            fraction = value
            wholeText = String(text[..<dot]) + rest.dropFirst(digits.count)
        }
        guard let date = try? wholeSeconds.parse(wholeText) else { return nil }
        return date.addingTimeInterval(fraction)
    }
}
