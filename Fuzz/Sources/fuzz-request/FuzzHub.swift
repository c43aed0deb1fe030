import KeyscopeCore
import KeyscopeInspector
import KeyscopePreferences
import KeyscopeTunables

/// The hub a fuzzed request runs against: two memory stores with nested values of every kind, and three changes
/// after their registration (seq 1 and 2), so that seq 3…5 can be reverted and rewound to.
enum FuzzHub {
    static func make() -> InspectorHub {
        let registry = StoreRegistry()
        // The features' requests are parsed by their handlers: without endpoints they answer no_tunables and
        // no_preferences once their members are read.
        let hub = InspectorHub(
            registry: registry, options: HubOptions(maxEntries: 64, deliveriesRefresh: nil),
            features: [TunablesFeature(), PreferencesFeature()])
        let app = KeyValueStore(
            id: StoreID(scope: .app, storage: .memory),
            root: [
                "cart": [
                    "total": 90, "ratio": 0.5, "coupon": "SAVE10",
                    "items": [["title": "Tea", "qty": 1], ["title": "Cake", "qty": 2]],
                ],
                "user": ["name": "Ada", "$beta": true, "accent": .color(StoreColor("#FF8800")!)],
                "links": [.url(StoreValue.absoluteURL("https://example.com/x")!)],
                "prefs": ["com.app.theme": "dark"],
            ])
        let checkout = KeyValueStore(
            id: StoreID(scope: .scenario(id: "checkout"), storage: .memory),
            root: ["step": "address", "flags": ["express": false], "empty": [:], "list": []])
        try! registry.register(app)
        try! registry.register(checkout)
        hub.start()
        _ = try! hub.write(store: "app/memory", op: "set", path: "cart.total", value: 100)
        _ = try! hub.write(store: "scenario:checkout/memory", op: "merge", path: "flags", value: ["gift": true])
        _ = try! hub.transaction(
            store: "app/memory",
            ops: [
                HubWrite(op: "insert", path: "cart.items[0]", value: ["title": "Jam", "qty": 3]),
                HubWrite(op: "remove", path: "cart.coupon", value: nil),
            ])
        return hub
    }
}
