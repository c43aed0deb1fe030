import Foundation
import KeyscopeCore
import Logging

/// The app's settings, persisted to `app/file:<state dir>/state.json`: the theme (a merge of mode and accent color,
/// or the accent alone), feature flags, the API's base URL, the toolbar's height, recent searches kept to five
/// (inserts at the front, removes at the end), and a launch counter that survives restarts.
extension DemoScript {
    private static let theme: StoreKeyPath = "settings.theme"
    private static let features: StoreKeyPath = "features"
    private static let recentSearches: StoreKeyPath = "recentSearches"
    private static let toolbarHeight: StoreKeyPath = "toolbar.height"
    private static let apiBaseURL: StoreKeyPath = "api.baseURL"
    private static let keptSearches = 5

    /// Writes the defaults on a first launch (or after data of another major version was dropped), then counts
    /// this launch; one transaction.
    func setUpSettings() {
        let defaults = Self.defaultSettings
        do {
            try settings.transaction { tx in
                if !tx.exists("settings") {
                    for (key, value) in defaults.sorted(by: { $0.key < $1.key }) {
                        try tx.set(StoreKeyPath(segments: [.key(key)]), value)
                    }
                }
                let launches = (tx.get("launches")?.integerValue ?? 0) + 1
                try tx.set("launches", .integer(launches))
            }
        } catch {
            logger.error("could not set up the settings store", metadata: ["error": "\(error)"])
        }
    }

    func stepSettings() throws {
        let roll = Int.random(in: 0..<100, using: &random)
        switch roll {
        case 0..<25:
            let mode = random.pick(DemoCatalog.themeModes)
            try settings.apply(.merge(Self.theme, ["mode": .string(mode), "accent": newAccent()]))
        case 25..<40:
            try settings.apply(.set(Self.theme.appending(key: "accent"), newAccent()))
        case 40..<60:
            let path = Self.features.appending(key: random.pick(DemoCatalog.features))
            try settings.apply(.set(path, .bool(!(settings.get(path)?.boolValue ?? false))))
        case 60..<70:
            let current = settings.get(Self.toolbarHeight)?.integerValue
            let height = random.pick(DemoCatalog.toolbarHeights.filter { $0 != current })
            try settings.apply(.set(Self.toolbarHeight, .integer(height)))
        case 70..<76:
            let current = settings.get(Self.apiBaseURL)
            let next = DemoCatalog.apiBaseURLs.compactMap(URL.init(string:)).map(StoreValue.url).first { $0 != current }
            try settings.apply(.set(Self.apiBaseURL, next ?? .null))
        default:
            try rememberSearch(random.pick(DemoCatalog.searches))
        }
    }

    /// Drops the oldest search when five are kept, otherwise puts `term` first.
    private func rememberSearch(_ term: String) throws {
        guard let searches = settings.get(Self.recentSearches)?.arrayValue else {
            try settings.apply(.set(Self.recentSearches, [.string(term)]))
            return
        }
        if searches.count >= Self.keptSearches {
            try settings.apply(.remove(Self.recentSearches.appending(index: searches.count - 1)))
        } else {
            try settings.apply(.insert(Self.recentSearches.appending(index: 0), .string(term)))
        }
    }

    /// An accent color other than the current one.
    private func newAccent() -> StoreValue {
        let current = settings.get(Self.theme.appending(key: "accent"))
        return random.pick(DemoCatalog.accents.map(StoreValue.color).filter { $0 != current })
    }

    /// The top-level keys of a first launch.
    private static var defaultSettings: [String: StoreValue] {
        [
            "settings": [
                "theme": ["mode": "light", "accent": .color(DemoCatalog.accents[0])],
                "language": "en",
            ],
            "features": .object(Dictionary(uniqueKeysWithValues: DemoCatalog.features.map { ($0, .bool(false)) })),
            "api": [
                "baseURL": URL(string: DemoCatalog.apiBaseURLs[0]).map(StoreValue.url) ?? .null,
                "timeoutSeconds": 30,
            ],
            "toolbar": ["height": 44, "showsLabels": true],
            "recentSearches": [],
        ]
    }
}
