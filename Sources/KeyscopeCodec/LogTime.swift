public import Foundation
public import KeyscopeCore
import Synchronization

/// A log event's time: whole microseconds since 1970-01-01T00:00:00Z, written as RFC 3339 UTC with exactly six
/// fractional digits (LOG-FORMAT.md), for years 0000 through 9999.
///
/// A `Date` is rounded to the *nearest* microsecond (halves away from zero), not truncated: a `Date` holds a
/// binary double, so a time meant as `…00.125` may be stored as `…00.12499999…`, which truncation would print as
/// `.124999`.
/// Times written by this type and read back are exact: `LogTime` itself holds whole microseconds.
/// Formatting and parsing are done here, with integer calendar arithmetic (proleptic Gregorian, no leap seconds),
/// without `DateFormatter`, locales or time zones.
///
/// ```swift
/// let time = LogTime(Date(timeIntervalSince1970: 1_795_255_200.125))!
/// time.rfc3339                                               // "2026-11-21T10:00:00.125000Z"
/// LogTime(rfc3339: "2026-11-21T10:00:00.125000Z") == time    // true
/// ```
public struct LogTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Microseconds since 1970-01-01T00:00:00Z (negative before).
    public let microsecondsSince1970: Int64

    /// 0000-01-01T00:00:00.000000Z.
    public static let earliest = LogTime(unchecked: CivilCalendar.days(year: 0, month: 1, day: 1) * microsPerDay)
    /// 9999-12-31T23:59:59.999999Z.
    public static let latest = LogTime(unchecked: CivilCalendar.days(year: 10_000, month: 1, day: 1) * microsPerDay - 1)

    private static let microsPerSecond: Int64 = 1_000_000
    private static let microsPerDay: Int64 = 86_400 * microsPerSecond
    /// 2001-01-01T00:00:00Z, `Date`'s reference date, in microseconds since 1970.
    private static let referenceDateMicros: Int64 = 978_307_200 * microsPerSecond

    private init(unchecked micros: Int64) { microsecondsSince1970 = micros }

    /// A time from microseconds since 1970; `nil` outside ``earliest``…``latest``.
    public init?(microsecondsSince1970 micros: Int64) {
        guard micros >= Self.earliest.microsecondsSince1970, micros <= Self.latest.microsecondsSince1970 else {
            return nil
        }
        microsecondsSince1970 = micros
    }

    /// `date` rounded to the nearest microsecond; `nil` outside years 0000–9999.
    public init?(_ date: Date) {
        // From the reference date rather than 1970 (one subtraction fewer), whole seconds apart from the fraction:
        // scaling the whole double by 10⁶ first would round a second time (0.477 µs could become 0.5, then 1).
        let seconds = date.timeIntervalSinceReferenceDate
        guard seconds.isFinite, abs(seconds) < 1e12 else { return nil }
        let whole = seconds.rounded(.down)
        let fraction = Int64(((seconds - whole) * 1_000_000).rounded())
        self.init(microsecondsSince1970: Int64(whole) * Self.microsPerSecond + fraction + Self.referenceDateMicros)
    }

    /// The current time.
    public static var now: LogTime {
        // Read straight from the clock, to the nearest microsecond like `init(_ date:)`: the hub stamps every change
        // under the store's lock, and going through `Date` (a double) cost a conversion each way. The clock is within
        // years 0000–9999.
        var clock = timespec()
        clock_gettime(CLOCK_REALTIME, &clock)
        return LogTime(
            unchecked: Int64(clock.tv_sec) * microsPerSecond + (Int64(clock.tv_nsec) + 500) / 1000)
    }

    /// The time as a `Date`. A `Date` is a double of seconds since 2001: within about 270 years of 2001 it is
    /// within half a microsecond, so `LogTime(time.date) == time`; further away it can be a few microseconds off.
    public var date: Date {
        Date(timeIntervalSinceReferenceDate: Double(microsecondsSince1970 - Self.referenceDateMicros) / 1e6)
    }

    /// `YYYY-MM-DDTHH:MM:SS.ffffffZ`, always 27 ASCII characters.
    public var rfc3339: String { String(decoding: rfc3339Bytes, as: UTF8.self) }

    public var description: String { rfc3339 }

    public static func < (lhs: LogTime, rhs: LogTime) -> Bool {
        lhs.microsecondsSince1970 < rhs.microsecondsSince1970
    }

    /// The RFC 3339 text as UTF-8 bytes.
    public var rfc3339Bytes: [UInt8] {
        JSONBuffer.withScratch(capacity: 27) { buffer in
            appendRFC3339(to: &buffer)
            return buffer.bytes
        }
    }

    /// Appends the 27 bytes of ``rfc3339`` to `buffer` (log lines carry one each, and this is their hot path).
    public func appendRFC3339(to buffer: inout JSONBuffer) {
        let (days, micros) = microsecondsSince1970.quotientAndFlooredRemainder(dividingBy: Self.microsPerDay)
        let date = Self.calendarDate(days: days)
        let seconds = Int(micros / Self.microsPerSecond)
        let fraction = Int(micros % Self.microsPerSecond)
        let out = buffer.appendUninitialized(27)
        Self.twoDigits.withUTF8Buffer { pairs in
            // Two digits per step, from a table of "00" to "99" (the year is within 0000–9999 by construction).
            func pair(_ value: Int, at position: Int) {
                out[position] = pairs[2 * value]
                out[position + 1] = pairs[2 * value + 1]
            }
            pair(date / 1_000_000, at: 0)
            pair(date / 10_000 % 100, at: 2)
            out[4] = UInt8(ascii: "-")
            pair(date / 100 % 100, at: 5)
            out[7] = UInt8(ascii: "-")
            pair(date % 100, at: 8)
            out[10] = UInt8(ascii: "T")
            pair(seconds / 3600, at: 11)
            out[13] = UInt8(ascii: ":")
            pair(seconds / 60 % 60, at: 14)
            out[16] = UInt8(ascii: ":")
            pair(seconds % 60, at: 17)
            out[19] = UInt8(ascii: ".")
            pair(fraction / 10_000, at: 20)
            pair(fraction / 100 % 100, at: 22)
            pair(fraction % 100, at: 24)
            out[26] = UInt8(ascii: "Z")
        }
    }

    /// "00", "01", … "99" in a row.
    private static let twoDigits: StaticString = """
        00010203040506070809101112131415161718192021222324252627282930313233343536373839\
        40414243444546474849505152535455565758596061626364656667686970717273747576777879\
        8081828384858687888990919293949596979899
        """

    /// The last day converted to a calendar date, as `(days + dayBias) << 32 | YYYYMMDD`: a log's entries are nearly
    /// all of one day, and the conversion took about a twentieth of encoding a line. Any thread may replace it; a reader that
    /// sees another day converts again.
    private static let recentDay = Atomic<UInt64>(.max)
    /// Makes every day of years 0000–9999 a positive 32-bit number.
    private static let dayBias: Int64 = 1_000_000

    /// The date of the day `days` after 1970-01-01 as the decimal number YYYYMMDD.
    private static func calendarDate(days: Int64) -> Int {
        let key = UInt64(days + dayBias) << 32
        let recent = recentDay.load(ordering: .relaxed)
        if recent & 0xFFFF_FFFF_0000_0000 == key { return Int(recent & 0xFFFF_FFFF) }
        let (year, month, day) = CivilCalendar.civil(days: days)
        let date = Int(year * 10_000 + month * 100 + day)
        recentDay.store(key | UInt64(date), ordering: .relaxed)
        return date
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS.ffffffZ` exactly: UTC (`Z`), six fractional digits, a real calendar date,
    /// hours 00–23, minutes and seconds 00–59 (no leap second). `T` and `Z` may be lower case, as RFC 3339 allows.
    public init?(rfc3339 text: String) {
        guard let time = try? Self.parse(Array(text.utf8)) else { return nil }
        self = time
    }

    /// ``init(rfc3339:)`` with a reason for a refusal.
    static func parse(_ bytes: [UInt8]) throws(JanssonCodecError) -> LogTime {
        try bytes.withUnsafeBufferPointer { buffer throws(JanssonCodecError) in try parse(buffer) }
    }

    /// ``init(rfc3339:)`` with a reason for a refusal, over bytes in place (a log line decoder's).
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(JanssonCodecError) -> LogTime {
        func fail(_ reason: String) -> JanssonCodecError {
            JanssonCodecError(
                .invalidTime,
                "\"\(String(decoding: bytes, as: UTF8.self))\" is not an RFC 3339 UTC time with microseconds "
                    + "(YYYY-MM-DDTHH:MM:SS.ffffffZ): \(reason)")
        }
        guard bytes.count == 27 else { throw fail("it has \(bytes.count) characters, not 27") }
        func number(_ range: Range<Int>) throws(JanssonCodecError) -> Int64 {
            var value: Int64 = 0
            for index in range {
                let byte = bytes[index]
                guard byte >= 0x30, byte <= 0x39 else { throw fail("expected a digit at character \(index + 1)") }
                value = value * 10 + Int64(byte - 0x30)
            }
            return value
        }
        func expect(_ index: Int, _ allowed: String) throws(JanssonCodecError) {
            guard allowed.utf8.contains(bytes[index]) else {
                throw fail(
                    "expected \(allowed.map { "\"\($0)\"" }.joined(separator: " or ")) at character \(index + 1)")
            }
        }
        try expect(4, "-")
        try expect(7, "-")
        try expect(10, "Tt")
        try expect(13, ":")
        try expect(16, ":")
        try expect(19, ".")
        try expect(26, "Zz")
        let (year, month, day) = (try number(0..<4), try number(5..<7), try number(8..<10))
        let (hour, minute, second) = (try number(11..<13), try number(14..<16), try number(17..<19))
        let fraction = try number(20..<26)
        guard (1...12).contains(month) else { throw fail("month \(month) is not 01–12") }
        guard (1...CivilCalendar.daysInMonth(year: year, month: month)).contains(day) else {
            throw fail("day \(day) does not exist in \(year)-\(month < 10 ? "0" : "")\(month)")
        }
        guard hour < 24, minute < 60 else { throw fail("hour or minute out of range") }
        guard second < 60 else { throw fail("seconds must be 00–59 (leap seconds are not represented)") }
        let days = CivilCalendar.days(year: year, month: month, day: day)
        let seconds = ((days * 24 + hour) * 60 + minute) * 60 + second
        return LogTime(unchecked: seconds * microsPerSecond + fraction)
    }
}

/// Proleptic Gregorian calendar arithmetic on days since 1970-01-01 (H. Hinnant's `days_from_civil` algorithms).
private enum CivilCalendar {
    static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func civil(days: Int64) -> (year: Int64, month: Int64, day: Int64) {
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

    static func daysInMonth(year: Int64, month: Int64) -> Int64 {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}

extension Int64 {
    /// Floor division: the remainder is never negative (times before 1970 still have a positive time of day).
    fileprivate func quotientAndFlooredRemainder(dividingBy divisor: Int64) -> (Int64, Int64) {
        let (quotient, remainder) = quotientAndRemainder(dividingBy: divisor)
        return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
    }
}
