/// When the demo's next changes are due: ticks spread evenly at `rate` per second, a new rate taking effect from the
/// last tick, and no burst after a stall (a process stopped in a debugger, a machine asleep).
///
/// ```swift
/// var pacer = DemoPacer(rate: 50_000, start: clock.now)
/// // loop: sleep until pacer.nextWake, then
/// let count = min(pacer.dueTicks(at: clock.now), pacer.batchSize)
/// for _ in 0..<count { makeOneChange() }
/// pacer.tick(count)
/// ```
/// Up to 1999 changes per second a batch is one tick, so the thread sleeps before every change. Faster than that,
/// a thread cannot sleep and wake once per change (a wake-up alone costs tens of microseconds, more than the
/// 10 µs between changes at 100,000/s), so it wakes about once per ``batchPeriod`` and makes the ticks due by then:
/// the rate stays exact over any whole period, only the spacing inside one is lost.
///
/// It holds no clock of its own, so tests drive it with instants they choose.
struct DemoPacer {
    /// How far behind the pacer may fall before it drops the missed ticks instead of catching up with them.
    /// Within this, missed ticks are made up at once, so a run of a given length makes the same number of changes.
    static let maximumLag = Duration.seconds(1)
    /// How often a fast pacer wakes: the ticks of one period make one batch.
    static let batchPeriod = Duration.milliseconds(1)

    private(set) var rate: Int
    /// The instant of tick number 0 of the current rate.
    private var origin: ContinuousClock.Instant
    /// Ticks made since `origin`.
    private var ticks = 0

    init(rate: Int, start: ContinuousClock.Instant) {
        self.rate = max(1, rate)
        self.origin = start
    }

    /// Ticks per wake-up: those of one ``batchPeriod`` (1 up to 1999/s, 50 at 50,000/s).
    var batchSize: Int {
        max(1, Int(Self.batchPeriod * rate / .seconds(1)))
    }

    /// When the next change is due (possibly in the past).
    var nextTick: ContinuousClock.Instant {
        origin + Self.interval(ticks, rate: rate)
    }

    /// When to wake for the next batch: when its last tick is due (possibly in the past). Equals ``nextTick`` when
    /// ``batchSize`` is 1.
    var nextWake: ContinuousClock.Instant {
        origin + Self.interval(ticks + batchSize - 1, rate: rate)
    }

    /// How many ticks not made yet are due at `now` (their instant is `now` or earlier).
    func dueTicks(at now: ContinuousClock.Instant) -> Int {
        let elapsed = now - origin
        guard elapsed >= .zero else { return 0 }
        // Tick i is due when interval(i) <= elapsed. The floating-point guess is corrected against the exact
        // integer instants, so that a tick is never counted due before `nextTick` says it is.
        var last = Int(elapsed / .seconds(1) * Double(rate))
        while Self.interval(last + 1, rate: rate) <= elapsed { last += 1 }
        while last >= 0, Self.interval(last, rate: rate) > elapsed { last -= 1 }
        return max(0, last + 1 - ticks)
    }

    /// Records that the `count` changes due from ``nextTick`` on were made.
    mutating func tick(_ count: Int = 1) {
        ticks += count
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
        // The tick due `now` is made, not missed.
        let missed = dueTicks(at: now) - 1
        origin = now
        ticks = 0
        return missed
    }

    /// `count` ticks at `rate` per second.
    private static func interval(_ count: Int, rate: Int) -> Duration {
        Duration.seconds(1) * count / rate
    }
}
