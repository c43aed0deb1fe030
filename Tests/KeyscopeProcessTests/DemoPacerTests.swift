import Testing

@testable import keyscope

/// The demo's pacing, driven with instants the tests choose (no clock, no sleeping).
@Suite("Demo pacer")
struct DemoPacerTests {
    private let start = ContinuousClock.now

    @Test("ticks are spread evenly at the rate")
    func evenTicks() {
        var pacer = DemoPacer(rate: 20, start: start)
        var ticks: [Duration] = []
        for _ in 0..<5 {
            ticks.append(pacer.nextTick - start)
            pacer.tick()
        }
        #expect(ticks == [0, 50, 100, 150, 200].map { Duration.milliseconds($0) })
    }

    @Test("a new rate counts from the last tick")
    func rateChange() {
        var pacer = DemoPacer(rate: 10, start: start)
        for _ in 0..<3 { pacer.tick() }  // ticks at 0, 100 and 200 ms
        pacer.setRate(20)
        #expect(pacer.rate == 20)
        #expect(pacer.nextTick - start == .milliseconds(250))
        pacer.tick()
        #expect(pacer.nextTick - start == .milliseconds(300))
        pacer.setRate(1)
        #expect(pacer.nextTick - start == .milliseconds(1250))
    }

    @Test("a rate set before the first tick keeps the start")
    func rateBeforeFirstTick() {
        var pacer = DemoPacer(rate: 10, start: start)
        pacer.setRate(50)
        #expect(pacer.nextTick == start)
        pacer.tick()
        #expect(pacer.nextTick - start == .milliseconds(20))
    }

    @Test("a short lag is caught up, a long stall drops the missed ticks instead of bursting")
    func stalls() {
        var pacer = DemoPacer(rate: 10, start: start)
        pacer.tick()
        #expect(pacer.dropMissedTicks(now: start + .milliseconds(900)) == 0)
        #expect(pacer.nextTick - start == .milliseconds(100))

        let late = start + .seconds(5)
        #expect(pacer.dropMissedTicks(now: late) == 49)
        #expect(pacer.nextTick == late)
        pacer.tick()
        #expect(pacer.nextTick - late == .milliseconds(100))
    }
}

/// Above 1999 changes per second the pacer hands out a millisecond's worth of ticks per wake-up.
@Suite("Demo pacer batches")
struct DemoPacerBatchTests {
    private let start = ContinuousClock.now

    @Test(
        "a batch is one tick up to 1999/s, then a millisecond's worth",
        arguments: [
            (1, 1), (20, 1), (1000, 1), (1999, 1), (2000, 2), (10_000, 10), (50_000, 50), (100_000, 100),
        ])
    func batchSize(rate: Int, expected: Int) {
        #expect(DemoPacer(rate: rate, start: start).batchSize == expected)
    }

    @Test("at low rates the wake-up is the next tick, as before batching")
    func lowRateWakesPerTick() {
        var pacer = DemoPacer(rate: 1000, start: start)
        for _ in 0..<3 {
            #expect(pacer.nextWake == pacer.nextTick)
            pacer.tick()
        }
        #expect(pacer.nextTick - start == .milliseconds(3))
    }

    @Test("at 50,000/s the pacer wakes once a batch of 50 is due, then counts them")
    func highRateBatches() {
        var pacer = DemoPacer(rate: 50_000, start: start)
        // Ticks every 20 µs from 0: the 50th (index 49) is due at 980 µs.
        #expect(pacer.nextWake - start == .microseconds(980))
        #expect(pacer.dueTicks(at: start + .microseconds(979)) == 49)
        #expect(pacer.dueTicks(at: pacer.nextWake) == 50)
        pacer.tick(50)
        #expect(pacer.nextTick - start == .milliseconds(1))
        #expect(pacer.nextWake - start == .microseconds(1980))
        // A late wake-up finds more than a batch due; the rest are made without sleeping.
        #expect(pacer.dueTicks(at: start + .microseconds(2500)) == 76)
    }

    @Test("the ticks due are exact at tick instants and never negative")
    func dueTicksBoundaries() {
        var pacer = DemoPacer(rate: 3, start: start)
        #expect(pacer.dueTicks(at: start - .seconds(1)) == 0)
        #expect(pacer.dueTicks(at: start) == 1)
        // 1/3 s is not a whole number of attoseconds: tick 1 is due at the truncated instant, not before.
        let second = start + Duration.seconds(1) / 3
        #expect(pacer.dueTicks(at: second) == 2)
        #expect(pacer.dueTicks(at: second - Duration(secondsComponent: 0, attosecondsComponent: 1)) == 1)
        pacer.tick(2)
        #expect(pacer.nextTick == start + Duration.seconds(2) / 3)
        #expect(pacer.dueTicks(at: second) == 0)
    }

    @Test("a million ticks at 100,000/s end exactly ten seconds in")
    func longRunHasNoDrift() {
        var pacer = DemoPacer(rate: 100_000, start: start)
        var made = 0
        while made < 1_000_000 {
            let count = min(pacer.dueTicks(at: pacer.nextWake), pacer.batchSize)
            pacer.tick(count)
            made += count
        }
        #expect(made == 1_000_000)
        #expect(pacer.nextTick - start == .seconds(10))
    }
}
