/// When the demo's next change is due: ticks spread evenly at `rate` per second, a new rate taking effect from the
/// last tick, and no burst after a stall (a process stopped in a debugger, a machine asleep).
///
/// ```swift
/// var pacer = DemoPacer(rate: 20, start: clock.now)
/// // loop: sleep until pacer.nextTick, make one change, then
/// pacer.tick()
/// ```
/// It holds no clock of its own, so tests drive it with instants they choose.
struct DemoPacer {
    /// How far behind the pacer may fall before it drops the missed ticks instead of catching up with them.
    /// Within this, missed ticks are made up at once, so a run of a given length makes the same number of changes.
    static let maximumLag = Duration.seconds(1)

    private(set) var rate: Int
    /// The instant of tick number 0 of the current rate.
    private var origin: ContinuousClock.Instant
    /// Ticks made since `origin`.
    private var ticks = 0

    init(rate: Int, start: ContinuousClock.Instant) {
        self.rate = max(1, rate)
        self.origin = start
    }

    /// When the next change is due (possibly in the past).
    var nextTick: ContinuousClock.Instant {
        origin + Self.interval(ticks, rate: rate)
    }

    /// Records that the change due at ``nextTick`` was made.
    mutating func tick() {
        ticks += 1
    }

    /// Switches to `newRate`: the next tick comes `1/newRate` s after the last one made (at once if that is past).
    mutating func setRate(_ newRate: Int) {
        let newRate = max(1, newRate)
        guard newRate != rate else { return }
        if ticks > 0 {
            origin = origin + Self.interval(ticks - 1, rate: rate)
            ticks = 1
        }
        rate = newRate
    }

    /// Drops the ticks missed when `now` is more than ``maximumLag`` past ``nextTick``: the next one is due `now`.
    /// Returns how many ticks were dropped.
    @discardableResult
    mutating func dropMissedTicks(now: ContinuousClock.Instant) -> Int {
        let lag = now - nextTick
        guard lag > Self.maximumLag else { return 0 }
        let missed = Int(lag / (Duration.seconds(1) / rate))
        origin = now
        ticks = 0
        return missed
    }

    /// `count` ticks at `rate` per second.
    private static func interval(_ count: Int, rate: Int) -> Duration {
        Duration.seconds(1) * count / rate
    }
}
