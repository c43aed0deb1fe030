import KeyscopeCore
import KeyscopeReplayTesting
import Testing

/// The diff people read when a replayed state is not the golden one.
@Suite struct StateDiffTests {
    @Test func equalStatesHaveNoDifferences() {
        let state: StoreValue = ["app/memory": ["cart": ["total": 100, "items": [1, 2]]]]
        #expect(StateDiff(expected: state, actual: state).isEmpty)
    }

    @Test func aChangedValueNamesStoreAndPath() {
        let diff = StateDiff(
            expected: ["app/memory": ["cart": ["total": 100]]], actual: ["app/memory": ["cart": ["total": 90]]])
        #expect(diff.differences == ["app/memory: cart.total: expected 100, got 90"])
    }

    @Test func missingAndExtraStoresAndKeys() {
        let diff = StateDiff(
            expected: [
                "app/memory": ["cart": ["coupon": "WELCOME10", "total": 1]], "app/userPrefs": ["theme": "dark"],
            ],
            actual: ["app/memory": ["cart": ["total": 1, "note": "hi"]], "scenario:checkout/memory": [:]])
        #expect(
            diff.differences == [
                "app/memory: cart.coupon: missing, expected \"WELCOME10\"",
                "app/memory: cart.note: unexpected \"hi\"",
                "app/userPrefs: missing store, expected {\"theme\":\"dark\"}",
                "scenario:checkout/memory: extra store, got {}",
            ])
    }

    @Test func arraysAreComparedElementByElement() {
        let diff = StateDiff(
            expected: ["app/memory": ["items": [["sku": "TEA"], ["sku": "MUG"]]]],
            actual: ["app/memory": ["items": [["sku": "TEA"], ["sku": "CUP"], ["sku": "POT"]]]])
        #expect(
            diff.differences == [
                "app/memory: items: expected 2 elements, got 3",
                "app/memory: items[1].sku: expected \"MUG\", got \"CUP\"",
                "app/memory: items[2]: unexpected {\"sku\":\"POT\"}",
            ])
    }

    @Test func keysThatNeedQuotingAreQuotedAndTypesDiffer() {
        let diff = StateDiff(
            expected: ["app/memory": ["prefs": ["com.app.theme": 3, "ratio": 3]]],
            actual: ["app/memory": ["prefs": ["com.app.theme": 3.0, "ratio": "3"]]])
        #expect(
            diff.differences == [
                "app/memory: prefs[\"com.app.theme\"]: expected 3, got 3.0",
                "app/memory: prefs.ratio: expected 3, got \"3\"",
            ])
    }

    @Test func aRootThatIsNoLongerAnObject() {
        let diff = StateDiff(expected: ["app/memory": [:]], actual: ["app/memory": .null])
        #expect(diff.differences == ["app/memory: (root): expected {}, got null"])
    }

    @Test func theListIsCappedWithACount() {
        var expected: [String: StoreValue] = [:]
        var actual: [String: StoreValue] = [:]
        for index in 0..<30 {
            expected["k\(index < 10 ? "0" : "")\(index)"] = .integer(Int64(index))
            actual["k\(index < 10 ? "0" : "")\(index)"] = .integer(Int64(index + 1))
        }
        let diff = StateDiff(expected: ["app/memory": .object(expected)], actual: ["app/memory": .object(actual)])
        #expect(diff.differences.count == 30)
        let lines = diff.description(limit: 20).split(separator: "\n")
        #expect(lines.count == 21)
        #expect(lines.first == "app/memory: k00: expected 0, got 1")
        #expect(lines.last == "… and 10 more")
    }

    @Test func longValuesAreCut() {
        let long = StoreValue.string(String(repeating: "x", count: 200))
        let diff = StateDiff(expected: ["app/memory": ["a": long]], actual: ["app/memory": ["a": 1]])
        #expect(diff.differences.first?.hasSuffix("...\", got 1") == false)
        #expect(diff.differences.first?.contains("...") == true)
        #expect((diff.differences.first?.count ?? 0) < 120)
    }
}
