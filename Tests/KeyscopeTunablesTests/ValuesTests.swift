import Foundation
import KeyscopeCore
import KeyscopeTunables
import Testing

extension TunablesTests {
    /// Reading and writing values: typed getters, set, reset, publishers, and writes that bypass the class.
    @Suite struct ValuesTests {
        let defaults: StoreValue = [
            "height": 44, "ratio": 0.75, "whole": 5.0, "half": 2.5, "huge": 1e300, "title": "Shop", "beta": true,
            "accent": .color(StoreColor("#FF8800")!), "home": .url(URL(string: "https://example.com/x")!),
            "truthy": "true", "nothing": nil,
        ]

        @Test func typedGettersAcceptTheOtherNumericFormAndFallBackToTheDefault() throws {
            let sandbox = try Sandbox(defaults: defaults)
            let t = try sandbox.open()
            #expect(t.double("height", default: 0) == 44.0, "an integer reads as a double")
            #expect(t.double("ratio", default: 0) == 0.75)
            #expect(t.double("title", default: -1) == -1, "wrong type: the default")
            #expect(t.double("missing", default: -1) == -1)
            #expect(t.int("height", default: 0) == 44)
            #expect(t.int("whole", default: 0) == 5, "a number without a fraction reads as an integer")
            #expect(t.int("half", default: -1) == -1, "2.5 is never rounded: the default")
            #expect(t.int("huge", default: -1) == -1, "beyond Int: the default")
            #expect(t.int("ratio", default: -1) == -1)
            #expect(t.int("title", default: -1) == -1)
            #expect(t.string("title", default: "") == "Shop")
            #expect(t.string("height", default: "d") == "d")
            #expect(t.bool("beta", default: false) == true)
            #expect(t.bool("truthy", default: false) == false, "a string is not a boolean")
            #expect(t.bool("nothing", default: true) == true, "null: the default")
            #expect(t.color("accent", default: StoreColor(red: 0, green: 0, blue: 0)).hex == "#FF8800")
            #expect(t.color("title", default: StoreColor(red: 1, green: 2, blue: 3)).hex == "#010203")
            #expect(t.url("home", default: URL(string: "https://d.example")!).absoluteString == "https://example.com/x")
            #expect(t.url("title", default: URL(string: "https://d.example")!).absoluteString == "https://d.example")
            #expect(t.get("nothing") == .null)
            #expect(t.get("missing") == nil)
        }

        @Test func setSetAllResetAndResetAll() throws {
            let sandbox = try Sandbox(defaults: ["a": 1, "b": "x", "c": true])
            let t = try sandbox.open()
            let log = ChangeLog(sandbox.registry)
            try t.set("a", 2)
            try t.setAll(["b": "y", "c": false])
            #expect(t.getAll() == ["a": 2, "b": "y", "c": false])
            #expect(log.all.count == 2, "setAll is one change")
            #expect(log.all[1].patches.count == 2)
            #expect(log.all[1].transactionID != nil)

            try t.reset("a")
            #expect(t.get("a") == 1)
            t.store.set("extra", 9)  // a key the defaults lack: reset removes it
            try t.reset("extra")
            #expect(t.get("extra") == nil)

            let before = log.all.count
            try t.resetAll()
            #expect(t.getAll() == ["a": 1, "b": "x", "c": true])
            #expect(log.all.count == before + 1, "resetAll is one change")
            try t.flush()
            #expect(try sandbox.fileValue() == ["a": 1, "b": "x", "c": true])
            try t.resetAll()
            #expect(log.all.count == before + 1, "resetting what already is the default records nothing")
        }

        @Test func unknownKeysCannotBeResetOrRemoved() throws {
            let sandbox = try Sandbox(defaults: ["a": 1])
            let t = try sandbox.open()
            let error = #expect(throws: TunablesError.self) { try t.reset("nope") }
            #expect(error?.code == .unknownKey)
            #expect(error?.key == "nope")
            #expect(error?.message.contains("nope") == true)
            #expect(throws: TunablesError.self) { try t.remove("nope") }
            #expect(t.getAll() == ["a": 1])
        }

        @Test func keysWithDotsAndBracketsAreOneKey() throws {
            let sandbox = try Sandbox(defaults: ["com.app.theme": "dark", "a[0]": 1])
            let t = try sandbox.open()
            try t.set("com.app.theme", "light")
            #expect(t.getAll() == ["com.app.theme": "light", "a[0]": 1])
            #expect(t.string("com.app.theme", default: "") == "light")
        }

        @Test func publishersDeliverPerKeyAndForAll() throws {
            let sandbox = try Sandbox(defaults: ["a": 1, "b": 2])
            let t = try sandbox.open()
            let perKey = Heard<StoreValue?>()
            let all = Heard<[String: StoreValue]>()
            let c1 = t.publisher(for: "a", label: "A view").sink { perKey.append($0) }
            let c2 = t.publisher().sink { all.append($0) }
            try t.set("b", 3)  // not a's
            try t.set("a", 5)
            try t.set("a", 5)  // equal: nothing new
            try t.reset("a")
            #expect(perKey.values == [1, 5, 1])
            #expect(all.values == [["a": 1, "b": 2], ["a": 1, "b": 3], ["a": 5, "b": 3], ["a": 1, "b": 3]])
            #expect(t.store.subscriptions.contains { $0.label == "A view" })
            c1.cancel()
            c2.cancel()
        }

        @Test func writesThatBypassTheClassAreSavedToo() throws {
            let sandbox = try Sandbox(defaults: ["a": 1])
            let t = try sandbox.open()
            // The inspector writes to the store itself; so does a revert.
            let change = try #require(try t.store.apply(.set("a", 2)))
            #expect(eventually { (try? sandbox.fileValue()) == ["a": 2] }, "saved without a flush")
            try t.store.apply(change.inverted().patches.map { StoreOperation(patch: $0) })
            try t.flush()
            #expect(try sandbox.fileValue() == ["a": 1])

            // A burst coalesces; the last state is what is on disk.
            for i in 0..<200 { t.store.set("a", .integer(Int64(i))) }
            try t.flush()
            #expect(try sandbox.fileValue() == ["a": 199])
        }
    }
}

extension StoreOperation {
    /// The operation that applies a recorded patch's `new` (enough for the set patches these tests invert).
    init(patch: StorePatch) {
        switch patch.op {
        case .set: self = .set(patch.keyPath, patch.newValue ?? .null)
        case .insert: self = .insert(patch.keyPath, patch.newValue ?? .null)
        case .remove: self = .remove(patch.keyPath)
        case .merge: self = .merge(patch.keyPath, patch.newValue?.objectValue ?? [:])
        }
    }
}
