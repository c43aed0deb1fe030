import ArgumentParser
import Testing

@testable import keyscope

/// The demo options of `keyscope serve` and `keyscope demo`: the ranges `--help` states are the ones accepted.
@Suite struct ServeOptionsTests {
    @Test func rateAcceptsOneToOneHundredThousand() throws {
        #expect(try ServeCommand.parse(["--demo"]).rate == DemoConfiguration.defaultRate)
        #expect(try ServeCommand.parse(["--demo", "--rate", "1"]).rate == 1)
        #expect(try ServeCommand.parse(["--demo", "--rate", "50000"]).rate == 50_000)
        #expect(try ServeCommand.parse(["--demo", "--rate", "100000"]).rate == 100_000)
        #expect(DemoConfiguration.rates == 1...100_000)
    }

    @Test(arguments: ["0", "-5", "100001"])
    func rateOutOfRangeIsAUsageError(rate: String) {
        #expect(throws: (any Error).self) { try ServeCommand.parse(["--demo", "--rate", rate]) }
        #expect(throws: (any Error).self) { try DemoCommand.parse(["--rate", rate]) }
    }

    @Test func demoCommandTakesTheSameTopRate() throws {
        #expect(try DemoCommand.parse(["--rate", "100000"]).rate == 100_000)
    }

    @Test func demoKeysDefaultsToNoneAndTakesZeroToTheMaximum() throws {
        #expect(try ServeCommand.parse(["--demo"]).demoKeys == 0)
        #expect(try ServeCommand.parse(["--demo", "--demo-keys", "100000"]).demoKeys == 100_000)
        #expect(try ServeCommand.parse(["--demo", "--demo-keys", "2000000"]).demoKeys == LargeCatalog.maximumKeys)
        #expect(throws: (any Error).self) { try ServeCommand.parse(["--demo", "--demo-keys", "-1"]) }
        #expect(throws: (any Error).self) { try ServeCommand.parse(["--demo", "--demo-keys", "2000001"]) }
    }

    @Test func helpStatesTheRanges() {
        let help = ServeCommand.helpMessage(columns: 200)
        #expect(help.contains("1 to 100000"), "\(help)")
        #expect(help.contains("--demo-keys"))
        #expect(DemoCommand.helpMessage(columns: 200).contains("1 to 100000"))
    }

    @Test func configurationClampsIntoTheRanges() {
        #expect(DemoConfiguration(rate: 1_000_000).rate == 100_000)
        #expect(DemoConfiguration(rate: 0).rate == 1)
        #expect(DemoConfiguration(catalogKeys: -3).catalogKeys == 0)
        #expect(DemoConfiguration(catalogKeys: 5_000_000).catalogKeys == LargeCatalog.maximumKeys)
    }
}
