import KeyscopeCore

/// The persisted store (`app/file:<dir>/state.json`): a launch counter, preferences changed by merges and single
/// writes, and a list of recent searches kept to five (inserts at the front, removes at the end).
extension DemoService {
    private static let searches = ["tea", "headphones", "gift ideas", "umbrella", "dark chocolate", "kettle"]
    private static let themes = ["light", "dark", "high-contrast"]

    /// Counts this launch: the count survives restarts because the store is saved to its file.
    func setUpPrefs() {
        let launches = (prefs.get("session.launches")?.integerValue ?? 0) + 1
        prefs.merge("session", ["launches": .integer(launches)])
    }

    func stepPrefs() {
        let roll = Int.random(in: 0..<100, using: &random)
        switch roll {
        case 0..<30:
            prefs.merge("prefs", ["theme": .string(random.pick(Self.themes)), "compact": .bool(random.chance(50))])
        case 30..<45:
            let size = StoreValue.integer(Int64.random(in: 12...18, using: &random))
            if prefs.exists("prefs") {
                prefs.set("prefs.fontSize", size)
            } else {
                prefs.merge("prefs", ["fontSize": size])
            }
        default:
            let recent = prefs.get("recent")?.arrayValue ?? []
            if recent.count >= 5 {
                prefs.remove(StoreKeyPath(segments: [.key("recent"), .index(recent.count - 1)]))
            } else if recent.isEmpty && prefs.get("recent") == nil {
                prefs.set("recent", [.string(random.pick(Self.searches))])
            } else {
                prefs.insert("recent[0]", .string(random.pick(Self.searches)))
            }
        }
    }
}
