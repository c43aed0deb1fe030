import KeyscopeCore
import Synchronization
import Testing

@testable import KeyscopeInspector

/// With no reader, the log is still kept within its bounds: once enough entries wait, the writer settles them,
/// without anyone reading or asking.
@Suite struct UnreadLogBoundsTests {
    @Test func aLogNobodyReadsStaysWithinItsBounds() throws {
        let hub = startedHub(maxEntries: 50)
        let store = try addStore(hub, "unread")
        let writes = 5 * InspectorHub.writerSettleThreshold
        for n in 0..<writes { store.set("n", .integer(Int64(n))) }
        // Nothing here reads or settles: the writer keeps the entries held within the bound plus what may wait.
        let bound = 50 + InspectorHub.writerSettleThreshold
        let held = hub.state.withLock { $0.log.count }
        #expect(held <= bound, "the log still holds \(held) entries with no reader")
        #expect(hub.state.withLock { $0.log.evicted } >= writes - bound)
        // And the newest entries are all there.
        #expect(hub.logRange == (writes + 2 - 50)...(writes + 1))
    }
}
