import Foundation
import KeyscopeCodec
import KeyscopeCore
import KeyscopeRecording
import Testing

@Suite struct MuteRulesTests {
    let id = StoreID("app/memory")!
    let muted = MuteRules.placeholder

    // MARK: Patterns

    @Test(arguments: [
        ("user.card", "user.card"), ("sessions[*].token", "sessions.*.token"), ("*", "*"), ("a.*.b", "a.*.b"),
        ("[*]", "*"), ("items[*][*]", "items.*.*"), (#"prefs["com.app.theme"]"#, #"prefs["com.app.theme"]"#),
        (#"m["[*]"]"#, #"m["[*]"]"#), (#"a["*"]"#, "a.*"),
    ])
    func patternsParseWithWildcards(text: String, printed: String) throws {
        #expect(try MutePattern(parsing: text).description == printed)
    }

    @Test func aQuotedBracketStarIsAKeyNotAWildcard() throws {
        #expect(try MutePattern(parsing: #"m["[*]"]"#).segments == [.key("m"), .key("[*]")])
    }

    @Test(arguments: ["items[0]", "a.b[12].c", "[3]"])
    func literalIndexesAreRefused(text: String) {
        #expect {
            try MutePattern(parsing: text)
        } throws: { error in
            let error = error as! RecordingError
            return error.code == .badMutePattern && error.message.contains("literal index")
                && error.message.contains("[*]")
        }
    }

    @Test(arguments: ["", "a..b", "a[*]b", "a[*].", "a b", "[x]"])
    func malformedPatternsAreRefused(text: String) {
        #expect(throws: RecordingError.self) { try MutePattern(parsing: text) }
    }

    @Test func aPathThatDoesNotParseNamesTheColumn() {
        #expect {
            try MutePattern(parsing: "user..card")
        } throws: { error in
            (error as! RecordingError).message.contains("column 6")
        }
    }

    // MARK: Roots

    @Test func rootsAreMaskedAtEveryMatchIncludingArrayElements() throws {
        let rules = try MuteRules(patterns: ["user.card", "sessions[*].token", "*.secret"])
        let root: StoreValue = [
            "user": ["name": "Ada", "card": ["number": "4242", "cvc": 123]],
            "sessions": [["id": 1, "token": "t1"], ["id": 2], "not an object"],
            "a": ["secret": 1, "open": 2], "secret": "top level stays",
        ]
        #expect(
            rules.mask(root: root) == [
                "user": ["name": "Ada", "card": muted],
                "sessions": [["id": 1, "token": muted], ["id": 2], "not an object"],
                "a": ["secret": muted, "open": 2], "secret": "top level stays",
            ])
    }

    @Test func theOutermostMutedPathWins() throws {
        let rules = try MuteRules(patterns: ["a.b", "a"])
        #expect(rules.mask(root: ["a": ["b": 1], "c": 2]) == ["a": muted, "c": 2])
    }

    // MARK: Changes

    private func change(_ patches: StorePatch...) -> StoreChange {
        StoreChange(storeID: id, patches: patches, transactionID: UUID())
    }

    @Test func patchesBelowAMutedPathAreDroppedAndAnEmptyChangeWithThem() throws {
        let rules = try MuteRules(patterns: ["user.card"])
        let below = StorePatch(op: .set, keyPath: "user.card.cvc", oldValue: 1, newValue: 2)
        #expect(rules.mask(change(below)) == nil)
        let kept = StorePatch(op: .set, keyPath: "user.name", oldValue: "A", newValue: "B")
        let masked = try #require(rules.mask(change(below, kept)))
        #expect(masked.patches == [kept])
    }

    @Test func patchesAtOrAboveAMutedPathKeepTheirPlaceWithMaskedValues() throws {
        let rules = try MuteRules(patterns: ["user.card"])
        let at = StorePatch(op: .set, keyPath: "user.card", oldValue: ["n": 1], newValue: ["n": 2])
        let above = StorePatch(
            op: .set, keyPath: "user", oldValue: ["card": "x", "name": "A"], newValue: ["card": "y", "name": "B"])
        let removed = StorePatch(op: .remove, keyPath: "user", oldValue: ["card": "x"])
        let masked = try #require(rules.mask(change(at, above, removed)))
        #expect(
            masked.patches == [
                StorePatch(op: .set, keyPath: "user.card", oldValue: muted, newValue: muted),
                StorePatch(
                    op: .set, keyPath: "user", oldValue: ["card": muted, "name": "A"],
                    newValue: ["card": muted, "name": "B"]),
                StorePatch(op: .remove, keyPath: "user", oldValue: ["card": muted]),
            ])
    }

    @Test func mergeMembersAreMaskedAndAMergeIntoAMutedObjectBecomesASet() throws {
        let rules = try MuteRules(patterns: ["user.card", "prefs"])
        let merge = StorePatch(
            op: .merge, keyPath: "user", oldValue: ["card": "old"], newValue: ["card": "new", "name": "B"])
        let into = StorePatch(op: .merge, keyPath: "prefs", oldValue: [:], newValue: ["x": 1])
        let masked = try #require(rules.mask(change(merge, into)))
        #expect(
            masked.patches == [
                StorePatch(
                    op: .merge, keyPath: "user", oldValue: ["card": muted], newValue: ["card": muted, "name": "B"]),
                StorePatch(op: .set, keyPath: "prefs", oldValue: muted, newValue: muted),
            ])
    }

    @Test func eventsOfMutedStoresAreLeftOutAndRegisteredRootsMasked() throws {
        let other = StoreID("app/userPrefs")!
        let rules = try MuteRules(patterns: ["token"], stores: [other])
        #expect(rules.mask(LogEvent.removed(other)) == nil)
        #expect(rules.mask(LogEvent.registered(other, version: "1.0.0", root: [:])) == nil)
        #expect(
            rules.mask(LogEvent.registered(id, version: "1.0.0", root: ["token": "t", "a": 1]))
                == .registered(id, version: "1.0.0", root: ["token": muted, "a": 1]))
        #expect(rules.mask(LogEvent.reset(id, version: "2.0.0")) == .reset(id, version: "2.0.0"))
    }

    @Test func noRulesChangeNothing() {
        let patch = StorePatch(op: .set, keyPath: "a", newValue: 1)
        #expect(MuteRules.none.mask(change(patch))?.patches == [patch])
        #expect(MuteRules.none.isEmpty)
    }

    /// Secrets never reach a recording in clear: their mirror stores hold the redaction placeholder
    /// (docs/preferences.md), which the recorder writes as it is, like any string. Nothing to mask; this test pins
    /// that muting leaves such a value as it was and that no rule is needed for it.
    @Test func redactedSecretsStayRedactedWithOrWithoutRules() throws {
        let root: StoreValue = ["token": "•••• (51)"]
        #expect(MuteRules.none.mask(root: root) == root)
        #expect(try MuteRules(patterns: ["other"]).mask(root: root) == root)
    }
}
