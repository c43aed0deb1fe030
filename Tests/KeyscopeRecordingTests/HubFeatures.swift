import KeyscopeInspector
import KeyscopeRecording

/// The recordings feature of a hub, added without an endpoint when the hub has none yet.
extension InspectorHub {
    var recordingsFeature: RecordingsFeature { feature(orAdd: { RecordingsFeature() }) }
}
