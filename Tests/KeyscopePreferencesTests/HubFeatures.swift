import KeyscopeInspector
import KeyscopePreferences

/// The preference features of a hub, added without an endpoint when the hub has none yet.
extension InspectorHub {
    var preferencesFeature: PreferencesFeature { feature(orAdd: { PreferencesFeature() }) }
    var watchesFeature: WatchesFeature { feature(orAdd: { WatchesFeature() }) }
}
