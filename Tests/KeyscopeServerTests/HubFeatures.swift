import KeyscopeInspector
import KeyscopePreferences
import KeyscopeRecording
import KeyscopeTunables

/// Each feature of a hub, added without an endpoint when the hub has none yet.
extension InspectorHub {
    var tunablesFeature: TunablesFeature { feature(orAdd: { TunablesFeature() }) }
    var preferencesFeature: PreferencesFeature { feature(orAdd: { PreferencesFeature() }) }
    var watchesFeature: WatchesFeature { feature(orAdd: { WatchesFeature() }) }
    var recordingsFeature: RecordingsFeature { feature(orAdd: { RecordingsFeature() }) }
}
