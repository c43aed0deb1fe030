import Testing

@testable import KeyscopeInspector

@Suite struct FreedMemoryReturnTests {
    @Test func aTrimIsDueOnceAnIntervalHasPassedAndOnlyOneCallerIsTold() {
        let made = ContinuousClock.now
        let giving = FreedMemoryReturn(interval: .seconds(5), now: made)
        #expect(!giving.isDue(now: made), "the first trim comes an interval after the hub was made")
        #expect(!giving.isDue(now: made + .milliseconds(4_999)))
        #expect(giving.isDue(now: made + .seconds(5)))
        #expect(!giving.isDue(now: made + .seconds(5)), "a second caller at the same moment is not told")
        #expect(!giving.isDue(now: made + .seconds(9)))
        #expect(giving.isDue(now: made + .seconds(10)))
    }

    @Test func theHubHasOneByDefaultAndNoneWhenTheOptionIsOff() {
        #expect(HubOptions().freedMemoryReturn == .seconds(5))
        #expect(HubOptions(freedMemoryReturn: nil).freedMemoryReturn == nil)
        FreedMemoryReturn.trim()  // harmless at any moment: it only gives back free pages
    }

    #if canImport(Glibc)
    @Test func glibcsTrimIsFound() {
        #expect(FreedMemoryReturn.isAvailable, "malloc_trim was not found in the process")
    }
    #endif
}
