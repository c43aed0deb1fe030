import ArgumentParser
import KeyscopeClient
import KeyscopeCore
import KeyscopeInspector
import KeyscopeProtocol
import Testing

@testable import keyscope

/// The CLI's messages for the mistakes of issue 28: they name what exists, the closest match and the right flag.
@Suite struct CLIMessagesTests {
    static let stores = ["app/memory", "app/userPrefs:com.keyscope.demo", "scenario:checkout/memory"]

    @Test(arguments: [
        ("app/memroy", "app/memory"), ("scenario:checkuot/memory", "scenario:checkout/memory"),
        ("app/Memory", "app/memory"), ("app/memory ", "app/memory"),
        ("scenario:checkout/memroy", "scenario:checkout/memory"),
    ])
    func aMisspeltStoreGetsTheClosestAndTheList(given: String, closest: String) {
        let message = KnownStores.unknown(given, among: Self.stores)
        #expect(
            message == "no store \"\(given)\" on the server; did you mean \(closest)? (its stores: "
                + Self.stores.joined(separator: ", ") + ")")
    }

    @Test(arguments: ["scenario:catalog/memory", "app/file:/tmp/x.json", "nothing", "a/b"])
    func anUnlikeStoreGetsTheListAlone(given: String) {
        #expect(KnownStores.closest(to: given, among: Self.stores) == nil)
        #expect(
            KnownStores.unknown(given, among: Self.stores).hasSuffix(
                "on the server (its stores: app/memory, "
                    + "app/userPrefs:com.keyscope.demo, scenario:checkout/memory)"))
    }

    /// A secret mirror asked for by its former id (`app/backend:secrets.<service>`) names its id now.
    @Test func aSecretMirrorsFormerIDGetsItsCurrentOne() {
        let stores = Self.stores + ["app/secrets:com.keyscope.demo.api"]
        #expect(
            KnownStores.unknown("app/backend:secrets.com.keyscope.demo.api", among: stores)
                == "no store \"app/backend:secrets.com.keyscope.demo.api\" on the server: secret mirrors are "
                + "app/secrets:<service> stores now; did you mean app/secrets:com.keyscope.demo.api? (its stores: "
                + stores.joined(separator: ", ") + ")")
        #expect(KnownStores.closest(to: "app/backend:secrets.x", among: ["app/secrets:x"]) == "app/secrets:x")
        // Without that mirror on the server it is an unknown store like any other.
        #expect(KnownStores.renamed("app/backend:secrets.x", among: stores) == nil)
    }

    @Test func aServerWithoutStoresSaysSo() {
        #expect(
            KnownStores.unknown("app/memory", among: [])
                == "no store \"app/memory\" on the server (the server has no stores)")
    }

    @Test func theDistanceCountsEditsAndSwaps() {
        #expect(KnownStores.distance("memory", "memory") == 0)
        #expect(KnownStores.distance("memroy", "memory") == 1)
        #expect(KnownStores.distance("memor", "memory") == 1)
        #expect(KnownStores.distance("", "abc") == 3)
        #expect(KnownStores.distance("kitten", "sitting") == 3)
    }

    @Test func theStoreIdsOfASnapshotAreSorted() {
        let snapshot: StoreValue = ["type": "snapshot", "stores": [["id": "b/memory"], ["id": "a/memory"], [:]]]
        #expect(KnownStores.ids(in: snapshot) == ["a/memory", "b/memory"])
    }

    @Test func aReadOnlyServerIsExplainedByWhatItIs() {
        let replay = ServerGreeting(
            hello: ["readOnly": true, "server": ["name": "keyscope replay"]], snapshot: ["stores": []])
        #expect(replay.readOnly)
        #expect(replay.readOnlyAdvice.contains("`keyscope replay --serve`"))
        #expect(!replay.readOnlyAdvice.contains("--read-only"))
        let demo = ServerGreeting(hello: ["readOnly": true, "server": ["name": "keyscope demo"]], snapshot: [:])
        #expect(demo.readOnlyAdvice.contains("restart it without --read-only"))
        #expect(!ServerGreeting(hello: ["readOnly": false], snapshot: [:]).readOnly)
    }

    @Test func aWriteThatCreatedAKeySaysSoAndHowToTakeItOut() {
        let created = InspectorReply(message: ["type": "reply", "ok": true, "result": ["seq": 7, "created": ["crat"]]])
        #expect(WriteCommand.outcome(created) == "ok seq 7", "stdout stays `ok seq N` for scripts")
        #expect(
            WriteCommand.creationNotice(created, store: "app/memory")
                == "keyscope write: created crat, which did not exist before (a typo? `keyscope write app/memory crat "
                + "--op remove` takes it out)")
        let plain = InspectorReply(message: ["type": "reply", "ok": true, "result": ["seq": 8]])
        #expect(WriteCommand.outcome(plain) == "ok seq 8")
        #expect(WriteCommand.creationNotice(plain, store: "app/memory") == nil)
        let nothing = InspectorReply(message: ["type": "reply", "ok": true, "result": ["seq": .null]])
        #expect(WriteCommand.outcome(nothing) == "ok seq null (nothing changed)")
    }

    @Test func aTakenPortNamesItsHolderAndPort0() {
        let holder = ServerRecord(host: "127.0.0.1", port: 8081, token: "t", name: "keyscope demo", pid: 4121)
        let named = ServeFailure.listenFailure(host: "127.0.0.1", port: 8081, holder: holder)
        #expect(named.hasPrefix("could not listen on 127.0.0.1:8081: keyscope demo (pid 4121) is serving there; "))
        #expect(named.contains("pass --port 0"))
        let unknown = ServeFailure.listenFailure(host: "127.0.0.1", port: 80, holder: nil)
        #expect(unknown.contains("the port is taken") && unknown.contains("--port 0"))
    }

    @Test func severalServersAreNamedWithTheChosenOne() {
        let demo = ServerRecord(host: "127.0.0.1", port: 8081, token: "t", name: "keyscope demo", pid: 1)
        let replay = ServerRecord(host: "127.0.0.1", port: 40123, token: "u", name: "keyscope replay", pid: 2)
        #expect(ServerChoiceNotice.text(demo, among: [demo]) == nil)
        #expect(
            ServerChoiceNotice.text(replay, among: [replay, demo])
                == "keyscope: 2 servers are running; using the newest, keyscope replay on port 40123 (pass --port N "
                + "for another: 8081 keyscope demo)")
    }

    @Test func unknownTunablesAreListedWithTheClosest() {
        #expect(
            TuneFailure.knownKeys(["accent", "toolbar_height"], near: "toolbar_heigth")
                == "the tunables are: accent, toolbar_height (did you mean toolbar_height?)")
        #expect(TuneFailure.knownKeys(["accent"], near: "zzz") == "the tunables are: accent")
        #expect(TuneFailure.knownKeys([], near: "a") == "the service has no tunables")
    }

    @Test func theTokenAdviceFollowsWhereTheTokenCameFrom() throws {
        let given = try ClientOptions.parse(["--port", "8081", "--token", "abc"])
        #expect(given.tokenAdvice(environment: [:]).contains("given with --token"))
        let none = try ClientOptions.parse([])
        #expect(none.tokenAdvice(environment: ["KEYSCOPE_TOKEN": "x"]).contains("unset KEYSCOPE_TOKEN"))
        #expect(none.tokenAdvice(environment: [:]).contains("the token of its record"))
    }
}

/// `write` and `tune set` take a negative number as VALUE; other commands and `--` are left alone.
@Suite struct NegativeValuesTests {
    @Test(arguments: [
        (["write", "app/memory", "cart.total", "-5"], ["write", "app/memory", "cart.total", "--", "-5"]),
        (
            ["write", "app/memory", "cart.total", "-2.5", "--port", "8081"],
            ["write", "app/memory", "cart.total", "--port", "8081", "--", "-2.5"]
        ),
        (["tune", "set", "offset", "-.5"], ["tune", "set", "offset", "--", "-.5"]),
        (["write", "app/memory", "n", "--string", "-1e3"], ["write", "app/memory", "n", "--string", "--", "-1e3"]),
    ])
    func negativeNumbersMoveBehindADoubleDash(given: [String], rewritten: [String]) {
        #expect(NegativeValues.rewrite(given) == rewritten)
    }

    @Test(arguments: [
        ["write", "app/memory", "n", "--", "-5"], ["state", "f.kslog", "--at", "-1"], ["tune", "get", "-5"],
        ["write", "app/memory", "n", "1", "--port", "-1"], ["write", "app/memory", "n", "-x"], ["write", "-h"],
    ])
    func everythingElseIsLeftAlone(given: [String]) {
        #expect(NegativeValues.rewrite(given) == given)
    }

    @Test func theRewrittenArgumentsParseWithTheNegativeValue() throws {
        let write = try WriteCommand.parse(
            Array(NegativeValues.rewrite(["write", "app/memory", "n", "-5"]).dropFirst()))
        #expect(write.value == "-5" && write.path == "n")
        let tune = try TuneSetCommand.parse(Array(NegativeValues.rewrite(["tune", "set", "k", "-7"]).dropFirst(2)))
        #expect(tune.key == "k" && tune.value == "-7")
    }

    @Test func stateAtANegativeSeqIsRefusedAsNegative() {
        do {
            _ = try StateCommand.parse(["f.kslog", "--at", "-1"])
            Issue.record("accepted --at -1")
        } catch {
            #expect(StateCommand.message(for: error) == "--at must be 0 or more; got -1.")
            #expect(StateCommand.exitCode(for: error) == .validationFailure)
        }
    }

    @Test func replayServeTakesAFreePortUnlessTold() throws {
        #expect(try ReplayCommand.parse(["f.kslog", "--serve"]).port == nil)
        #expect(try ReplayCommand.parse(["f.kslog", "--serve", "--port", "8090"]).port == 8090)
        #expect(throws: (any Error).self) { try ReplayCommand.parse(["f.kslog", "--port", "8090"]) }
    }
}
