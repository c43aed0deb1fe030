import Foundation

/// The time inside the demo's story: it starts at a fixed instant and moves on a few seconds per change, so that
/// timestamps in the stores (`user.lastSeen`, `session.startedAt`, an order's `placedAt`) look real and yet are the
/// same in every run with the same seed.
///
/// ```swift
/// var clock = DemoClock()
/// clock.advance(by: 5)
/// clock.timestamp   // "2026-11-21T09:00:05Z"
/// ```
struct DemoClock {
    /// 2026-11-21T09:00:00Z.
    static let start: Int64 = 1_795_251_600

    /// Seconds since 1970.
    private(set) var now: Int64 = start

    mutating func advance(by seconds: Int64) {
        now += seconds
    }

    /// `now` in RFC 3339 UTC, to the second: `2026-11-21T09:00:05Z`.
    var timestamp: String {
        Date(timeIntervalSince1970: TimeInterval(now)).formatted(.iso8601)
    }
}
