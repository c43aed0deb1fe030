import Foundation
import KeyscopeCodec
import PropertyBased
import Testing

/// RFC 3339 UTC times with microseconds (docs/recording.md), formatted and parsed without DateFormatter.
@Suite("log times")
struct LogTimeTests {
    @Test("formats UTC with exactly six fractional digits")
    func formatting() throws {
        let cases: [(Int64, String)] = [
            (0, "1970-01-01T00:00:00.000000Z"),
            (1, "1970-01-01T00:00:00.000001Z"),
            (-1, "1969-12-31T23:59:59.999999Z"),
            (1_795_255_200_125_000, "2026-11-21T10:00:00.125000Z"),
            (951_782_400_000_000, "2000-02-29T00:00:00.000000Z"),
            (4_107_542_399_999_999, "2100-02-28T23:59:59.999999Z"),
            (-62_135_596_800_000_000, "0001-01-01T00:00:00.000000Z"),
            (-62_167_219_200_000_000, "0000-01-01T00:00:00.000000Z"),
            (253_402_300_799_999_999, "9999-12-31T23:59:59.999999Z"),
        ]
        for (micros, text) in cases {
            let time = try #require(LogTime(microsecondsSince1970: micros))
            #expect(time.rfc3339 == text)
            #expect(time.description == text)
            #expect(LogTime(rfc3339: text) == time)
        }
        #expect(LogTime.earliest.rfc3339 == "0000-01-01T00:00:00.000000Z")
        #expect(LogTime.latest.rfc3339 == "9999-12-31T23:59:59.999999Z")
        #expect(LogTime(microsecondsSince1970: LogTime.latest.microsecondsSince1970 + 1) == nil)
        #expect(LogTime(microsecondsSince1970: LogTime.earliest.microsecondsSince1970 - 1) == nil)
    }

    @Test("a Date is rounded to the nearest microsecond, not truncated")
    func roundingDates() throws {
        let time = try #require(LogTime(Date(timeIntervalSince1970: 1_795_255_200.125)))
        #expect(time.rfc3339 == "2026-11-21T10:00:00.125000Z")
        // 0.9 µs and 0.4 µs past a second (as near as a Date can hold them) round up and down.
        let roundsUp = try #require(LogTime(Date(timeIntervalSince1970: 1_795_255_200.000_000_9)))
        #expect(roundsUp.rfc3339 == "2026-11-21T10:00:00.000001Z")
        let roundsDown = try #require(LogTime(Date(timeIntervalSince1970: 1_795_255_200.000_000_4)))
        #expect(roundsDown.rfc3339 == "2026-11-21T10:00:00.000000Z")
        let before1970 = try #require(LogTime(Date(timeIntervalSince1970: -0.000_000_6)))
        #expect(before1970.rfc3339 == "1969-12-31T23:59:59.999999Z")
        #expect(LogTime(Date(timeIntervalSince1970: 1e13)) == nil)
        #expect(LogTime(Date(timeIntervalSinceReferenceDate: .nan)) == nil)
    }

    @Test("now reads the same clock as Date, to the microsecond")
    func nowIsTheWallClock() throws {
        // `now` reads the clock directly; `Date()` before and after bracket it (one microsecond of slack for the
        // rounding of each).
        let before = try #require(LogTime(Date())).microsecondsSince1970
        let now = LogTime.now.microsecondsSince1970
        let after = try #require(LogTime(Date())).microsecondsSince1970
        #expect(now >= before - 1 && now <= after + 1, "\(before) \(now) \(after)")
    }

    @Test("Date → LogTime → Date → LogTime is stable, and times order like their microseconds")
    func dateRoundTrip() async {
        let anyTime = Generator { rng in
            Int64.random(
                in: LogTime.earliest.microsecondsSince1970...LogTime.latest.microsecondsSince1970, using: &rng)
        }
        await propertyCheck(count: 1000, input: anyTime) { value in
            let time = LogTime(microsecondsSince1970: value)!
            #expect(LogTime(rfc3339: time.rfc3339) == time)
            #expect(time.rfc3339.utf8.count == 27)
        }
        // A Date holds every microsecond only within about 270 years of 2001 (its double's precision).
        let nearTime = Generator { rng in
            Int64.random(in: -5_364_662_400_000_000...7_258_118_400_000_000, using: &rng)  // 1800–2200
        }
        await propertyCheck(count: 1000, input: nearTime) { value in
            let time = LogTime(microsecondsSince1970: value)!
            #expect(LogTime(time.date) == time)
        }
        #expect(LogTime(microsecondsSince1970: 5)! < LogTime(microsecondsSince1970: 6)!)
        #expect(abs(LogTime.now.date.timeIntervalSinceNow) < 60)
    }

    @Test(
        "parsing is strict",
        arguments: [
            "2026-11-21T10:00:00.125Z", "2026-11-21T10:00:00Z", "2026-11-21T10:00:00.125000+00:00",
            "2026-11-21 10:00:00.125000Z", "2026-13-01T10:00:00.000000Z", "2026-02-29T10:00:00.000000Z",
            "2100-02-29T00:00:00.000000Z", "2026-04-31T00:00:00.000000Z", "2026-11-21T24:00:00.000000Z",
            "2026-11-21T10:60:00.000000Z", "2016-12-31T23:59:60.000000Z", "2026-11-00T10:00:00.000000Z",
            "+2026-11-21T10:00:00.00000Z", "2026-11-21T10:00:00.12500xZ", "", "２０２６-11-21T10:00:00.000000Z",
        ])
    func strictParsing(_ text: String) {
        #expect(LogTime(rfc3339: text) == nil)
    }

    @Test("lower-case t and z are RFC 3339 too")
    func lowerCase() {
        #expect(LogTime(rfc3339: "2026-11-21t10:00:00.125000z") == LogTime(rfc3339: "2026-11-21T10:00:00.125000Z"))
        #expect(LogTime(rfc3339: "2024-02-29T00:00:00.000000Z") != nil)
        #expect(LogTime(rfc3339: "2000-02-29T00:00:00.000000Z") != nil)
    }

    @Test("agrees with Foundation's Gregorian calendar, before and after 1970")
    func agreesWithFoundationsCalendar() {
        #expect(LogTime(microsecondsSince1970: 0)!.rfc3339 == "1970-01-01T00:00:00.000000Z")
        #expect(LogTime(microsecondsSince1970: -1)!.rfc3339 == "1969-12-31T23:59:59.999999Z")
        #expect(LogTime(microsecondsSince1970: 951_782_400_000_001)!.rfc3339 == "2000-02-29T00:00:00.000001Z")
        #expect(LogTime(microsecondsSince1970: 1_795_255_200_125_000)!.rfc3339 == "2026-11-21T10:00:00.125000Z")
        #expect(LogTime(microsecondsSince1970: 253_402_300_799_999_999)!.rfc3339 == "9999-12-31T23:59:59.999999Z")
        #expect(LogTime.earliest.rfc3339 == "0000-01-01T00:00:00.000000Z")
        // The last day's date is remembered: times of one day, then another, then the first again.
        for (micros, text) in [
            (1_795_255_200_125_000, "2026-11-21T10:00:00.125000Z"),
            (1_795_305_599_999_999, "2026-11-21T23:59:59.999999Z"),
            (1_795_305_600_000_000, "2026-11-22T00:00:00.000000Z"),
            (1_795_255_200_000_007, "2026-11-21T10:00:00.000007Z"),
        ] as [(Int64, String)] {
            #expect(LogTime(microsecondsSince1970: micros)!.rfc3339 == text)
        }
        // Agrees with Foundation's calendar on a spread of instants.
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        for step in 0..<200 {
            let micros = Int64(step) * 15_778_463_123_457 - 400_000_000_000_000
            let time = LogTime(microsecondsSince1970: micros)!
            let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: time.date)
            let expected = String(
                format: "%04d-%02d-%02dT%02d:%02d:%02d.%06dZ", parts.year!, parts.month!, parts.day!, parts.hour!,
                parts.minute!, parts.second!, Int(((micros % 1_000_000) + 1_000_000) % 1_000_000))
            #expect(time.rfc3339 == expected)
        }
    }
}
