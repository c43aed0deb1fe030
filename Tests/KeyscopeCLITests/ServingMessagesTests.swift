import ArgumentParser
import Testing

@testable import keyscope

/// Issue 28's second pass: a serving option refused before the server starts names its flag and the command's
/// usage; an address that is not this machine's is a runtime failure; `tune set` of a new key says it created it.
@Suite struct ServingMessagesTests {
    @Test(arguments: ["65536", "99999"])
    func aPortOutOfRangeIsAUsageErrorNamingPort(port: String) {
        for parse in [
            { try ServeCommand.parse(["--demo", "--port", port]) as Any },
            { try ReplayCommand.parse(["r.kslog", "--serve", "--port", port]) as Any },
        ] {
            let error = #expect(throws: (any Error).self) { try parse() }
            #expect(ServeCommand.message(for: error!) == "--port must be 0 (a free port) or 1 to 65535; got \(port).")
        }
    }

    @Test func aTokenTheServerWouldRefuseNamesWhereItCameFrom() {
        let rule = "must be 16 or more URL-safe characters (letters, digits, - . _ ~)."
        let given = #expect(throws: ValidationError.self) {
            try TokenOption.validate(port: nil, token: "short", environment: [:])
        }
        #expect(given?.message == "--token " + rule)
        let inherited = #expect(throws: ValidationError.self) {
            try TokenOption.validate(port: 0, token: nil, environment: ["KEYSCOPE_TOKEN": "has spaces, sixteen+"])
        }
        #expect(inherited?.message == "KEYSCOPE_TOKEN " + rule)
        #expect(throws: Never.self) {
            try TokenOption.validate(port: 8081, token: "abcdefghijklmnop-._~0123", environment: [:])
            try TokenOption.validate(port: 0, token: nil, environment: [:])
        }
    }

    @Test func aUsageErrorFoundWhileRunningGetsTheCommandsOwnUsage() {
        #expect(Keyscope.path(to: TuneSetCommand.self) == ["keyscope", "tune", "set"])
        #expect(Keyscope.path(to: ServeCommand.self) == ["keyscope", "serve"])
        let text = Keyscope.usageError("the public directory /x does not exist", of: ServeCommand.self)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.first == "Error: the public directory /x does not exist")
        #expect(lines.dropFirst().first?.hasPrefix("Usage: keyscope serve ") == true, "\(text)")
        #expect(lines.last == "  See 'keyscope serve --help' for more information.")
    }

    @Test func anAddressNotOfThisMachineIsNamedWithoutPort0Advice() {
        let message = ServeFailure.listenFailure(host: "192.0.2.1", port: 0, holder: nil)
        #expect(message.hasPrefix("could not listen on 192.0.2.1: it is not an address of this machine; "))
        #expect(!message.contains("--port 0"))
    }

    @Test func aTunableSetCreatedIsNamedWithTheClosestAndHowToTakeItOut() {
        let notice = TuneSetCommand.creationNotice("toolbr_height", before: ["accent", "toolbar_height"])
        #expect(
            notice
                == "keyscope tune set: created toolbr_height, a tunable the service did not have (a typo of "
                + "toolbar_height? it had accent, toolbar_height); `keyscope tune remove toolbr_height` takes it out")
        let odd = TuneSetCommand.creationNotice("it's new", before: [])
        #expect(odd.contains("(a typo? it had none)"))
        #expect(odd.hasSuffix(#"`keyscope tune remove 'it'\''s new'` takes it out"#))
    }
}
