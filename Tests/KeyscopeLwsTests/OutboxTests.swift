import KeyscopeLws
import Testing

/// The queue of messages a connection waits to send (the inspector's sessions and the echo's share it).
@Suite struct OutboxTests {
    @Test func givesMessagesBackOldestFirst() {
        var outbox = Outbox<Int>()
        #expect(outbox.isEmpty)
        outbox.append(1)
        outbox.append(2)
        #expect(outbox.popFirst() == 1)
        outbox.append(3)
        #expect(!outbox.isEmpty)
        #expect(outbox.popFirst() == 2)
        #expect(outbox.popFirst() == 3)
        #expect(outbox.isEmpty)
        #expect(outbox.popFirst() == nil)
    }

    @Test func keepsWorkingOnceEmptied() {
        var outbox = Outbox<[UInt8]>()
        for round in 0..<3 {
            outbox.append([UInt8(round)])
            outbox.append([UInt8(round), 1])
            #expect(outbox.popFirst() == [UInt8(round)])
            #expect(outbox.popFirst() == [UInt8(round), 1])
            #expect(outbox.isEmpty)
        }
    }

    @Test func letsGoOfATakenMessage() {
        final class Payload {}
        var outbox = Outbox<Payload>()
        weak var taken: Payload?
        do {
            let first = Payload()
            taken = first
            outbox.append(first)
        }
        outbox.append(Payload())
        _ = outbox.popFirst()
        // The second message still waits, so the storage is not reset: the first must be gone all the same.
        #expect(taken == nil)
        #expect(!outbox.isEmpty)
    }
}
