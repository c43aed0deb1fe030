public import Foundation

/// A wall-clock time in whole microseconds since 1970, written as RFC 3339 UTC with six fractional digits
/// (`2026-11-21T10:00:00.125000Z`), the form of log times and subscription `since` values.
///
/// ```swift
/// let now = HubTime.now()
/// now.rfc3339   // "2026-11-21T10:00:00.125000Z"
/// ```
public struct HubTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Microseconds since 1970-01-01T00:00:00Z.
    public let microseconds: Int64

    public init(microseconds: Int64) { self.microseconds = microseconds }

    /// The date, truncated to whole microseconds.
    public init(_ date: Date) {
        microseconds = Int64((date.timeIntervalSince1970 * 1_000_000).rounded(.down))
    }

    /// The current wall-clock time.
    public static func now() -> HubTime { HubTime(Date()) }

    public var date: Date { Date(timeIntervalSince1970: Double(microseconds) / 1_000_000) }

    public var description: String { rfc3339 }

    public static func < (lhs: HubTime, rhs: HubTime) -> Bool { lhs.microseconds < rhs.microseconds }

    /// `YYYY-MM-DDTHH:MM:SS.ffffffZ`.
    public var rfc3339: String { String(decoding: rfc3339Bytes, as: UTF8.self) }

    /// The RFC 3339 text as UTF-8 bytes (27 of them for years 0…9999).
    public var rfc3339Bytes: [UInt8] {
        let (seconds, fraction) = Self.floorDivide(microseconds, 1_000_000)
        let (days, secondOfDay) = Self.floorDivide(seconds, 86_400)
        let (year, month, day) = Self.civil(fromDays: days)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(27)
        func digits(_ value: Int64, _ count: Int) {
            var text = Array(String(value).utf8)
            if text.count < count {
                text.insert(contentsOf: repeatElement(UInt8(ascii: "0"), count: count - text.count), at: 0)
            }
            bytes.append(contentsOf: text)
        }
        digits(year, 4)
        bytes.append(UInt8(ascii: "-"))
        digits(month, 2)
        bytes.append(UInt8(ascii: "-"))
        digits(day, 2)
        bytes.append(UInt8(ascii: "T"))
        digits(secondOfDay / 3600, 2)
        bytes.append(UInt8(ascii: ":"))
        digits(secondOfDay / 60 % 60, 2)
        bytes.append(UInt8(ascii: ":"))
        digits(secondOfDay % 60, 2)
        bytes.append(UInt8(ascii: "."))
        digits(fraction, 6)
        bytes.append(UInt8(ascii: "Z"))
        return bytes
    }

    private static func floorDivide(_ a: Int64, _ b: Int64) -> (quotient: Int64, remainder: Int64) {
        let q = a / b
        let r = a % b
        return r < 0 ? (q - 1, r + b) : (q, r)
    }

    /// Proleptic Gregorian year, month and day of a day count since 1970-01-01 (H. Hinnant's `civil_from_days`).
    private static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
