import Foundation
import KeyscopeCore
import Synchronization
import Testing

@testable import KeyscopeInspector

/// With no reader, the log is still kept within its bounds: once enough entries wait, they are settled (by a
/// background queue, so that the writer does not pay for it) without anyone reading or asking.
@Suite struct UnreadLogBoundsTests {
    @Test func aLogNobodyReadsStaysWithinItsBounds() throws {
        let hub = startedHub(maxEntries: 50)
        let store = try addStore(hub, "unread")
        let writes = 5 * InspectorHub.writerSettleThreshold
        for n in 0..<writes { store.set("n", .integer(Int64(n))) }
        // Nothing here settles: the entries held must drop by themselves to the bound plus what may still wait.
        let bound = 50 + InspectorHub.writerSettleThreshold
        let deadline = Date().addingTimeInterval(10)
        var held = hub.state.withLock { $0.log.count }
        while held > bound, Date() < deadline {
            usleep(1000)
            held = hub.state.withLock { $0.log.count }
        }
        #expect(held <= bound, "the log still holds \(held) entries with no reader")
        #expect(hub.state.withLock { $0.log.evicted } >= writes - bound)
        // And the newest entries are all there.
        #expect(hub.logRange == (writes + 2 - 50)...(writes + 1))
    }
}
