import Testing

@testable import KeyscopeServer

/// Who makes room when the connection cap is reached: the connections that have not completed a request, oldest
/// first; never one being answered or a WebSocket client.
@Suite struct ConnectionTableTests {
    @Test func admitsUpToTheCap() {
        var table = ConnectionTable<Int>(capacity: 3)
        #expect(table.admit(1) == .admitted)
        #expect(table.admit(2) == .admitted)
        #expect(table.admit(3) == .admitted)
        #expect(table.liveCount == 3)
    }

    @Test func theOldestWaitingConnectionMakesRoom() {
        var table = ConnectionTable<Int>(capacity: 3)
        _ = table.admit(1)
        _ = table.admit(2)
        _ = table.admit(3)
        #expect(table.admit(4) == .evict(1))
        #expect(table.isClosing(1))
        #expect(table.liveCount == 3)
        #expect(table.openCount == 4)
        // Told to close once: the next newcomer pushes out the next oldest.
        #expect(table.admit(5) == .evict(2))
        table.remove(1)
        table.remove(2)
        #expect(table.openCount == 3)
        #expect(!table.isClosing(1))
    }

    @Test func connectionsBeingAnsweredAndWebSocketsStay() {
        var table = ConnectionTable<Int>(capacity: 3)
        _ = table.admit(1)
        _ = table.admit(2)
        _ = table.admit(3)
        table.advance(1, to: .webSocket)
        table.advance(2, to: .answering)
        #expect(table.admit(4) == .evict(3))
        table.advance(4, to: .answering)
        table.remove(3)
        // Nobody waits: the newcomer itself is refused, and does not count once told so.
        #expect(table.admit(5) == .refuse)
        #expect(table.isClosing(5))
        #expect(table.liveCount == 3)
        #expect(table.stage(of: 1) == .webSocket)
        #expect(table.stage(of: 2) == .answering)
    }

    @Test func aRefusedNewcomerLeavesWaitingOnesAlone() {
        var table = ConnectionTable<Int>(capacity: 2)
        _ = table.admit(1)
        _ = table.admit(2)
        table.advance(1, to: .answering)
        table.advance(2, to: .answering)
        #expect(table.admit(3) == .refuse)
        // The refused one is waiting but already closing: the next newcomer cannot push it out twice.
        #expect(table.admit(4) == .refuse)
        table.remove(3)
        table.remove(4)
        table.remove(2)
        #expect(table.admit(5) == .admitted)
        #expect(table.liveCount == 2)
    }

    @Test func aStageChangeOfAnUnknownConnectionIsIgnored() {
        var table = ConnectionTable<Int>(capacity: 2)
        table.advance(9, to: .answering)
        table.remove(9)
        #expect(table.stage(of: 9) == nil)
        #expect(table.openCount == 0)
    }
}
