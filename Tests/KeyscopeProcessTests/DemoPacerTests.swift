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
