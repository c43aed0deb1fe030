import KeyscopeLws
import Testing

/// Fragments (and the pieces lws hands over per receive buffer) join into whole messages, within the limit: what the
/// inspector, the conformance echo and the CLI's client each do with what they receive.
@Suite struct MessageAssemblyTests {
    /// Appends `bytes` as one piece.
    private func append(
        _ assembly: inout MessageAssembly, _ bytes: [UInt8], first: Bool = false, final: Bool, binary: Bool = false,
        announced: Int = 0
    ) -> MessageAssembly.Outcome {
        bytes.withUnsafeBytes {
            assembly.append($0, first: first, final: final, binary: binary, announced: announced)
        }
    }

    @Test func aSinglePieceIsAWholeMessage() {
        var assembly = MessageAssembly(limit: 16)
        #expect(
            append(&assembly, Array("{}".utf8), first: true, final: true) == .complete(Array("{}".utf8), binary: false))
        #expect(assembly.pendingCount == 0)
    }

    @Test func piecesJoinInOrderUntilTheFinalOne() {
        var assembly = MessageAssembly(limit: 64)
        #expect(append(&assembly, Array(#"{"type":"#.utf8), first: true, final: false) == .partial)
        #expect(append(&assembly, Array(#""gap","from""#.utf8), final: false) == .partial)
        #expect(assembly.pendingCount == 20)
        #expect(
            append(&assembly, Array(":1}".utf8), final: true)
                == .complete(Array(#"{"type":"gap","from":1}"#.utf8), binary: false))
        #expect(assembly.pendingCount == 0)
        // The next message starts afresh.
        #expect(
            append(&assembly, Array("[]".utf8), first: true, final: true) == .complete(Array("[]".utf8), binary: false))
    }

    @Test func theFirstFrameSaysWhetherTheMessageIsBinary() {
        var assembly = MessageAssembly(limit: 64)
        // Continuation frames carry no type of their own: lws reports them as text.
        #expect(append(&assembly, [0, 1], first: true, final: false, binary: true) == .partial)
        #expect(append(&assembly, [2], final: true, binary: false) == .complete([0, 1, 2], binary: true))
        #expect(append(&assembly, [3], first: true, final: true) == .complete([3], binary: false))
    }

    @Test func aMessageOfExactlyTheLimitPassesAndOneByteMoreDoesNot() {
        var assembly = MessageAssembly(limit: 8)
        #expect(append(&assembly, [UInt8](repeating: 0x31, count: 5), first: true, final: false) == .partial)
        #expect(
            append(&assembly, [UInt8](repeating: 0x31, count: 3), final: true)
                == .complete(Array("11111111".utf8), binary: false))
        #expect(!assembly.overLimit)
        #expect(append(&assembly, [UInt8](repeating: 0x31, count: 5), first: true, final: false) == .partial)
        #expect(append(&assembly, [UInt8](repeating: 0x31, count: 4), final: false) == .overLimit)
        #expect(assembly.overLimit)
        #expect(assembly.pendingCount == 0)
    }

    @Test func whatAFrameAnnouncedCountsBeforeItArrives() {
        // lws hands a large frame over in pieces; the frame's length is known from its header, so a message that
        // will be too large is refused at its first piece instead of after the limit's worth of bytes was held.
        var assembly = MessageAssembly(limit: 8)
        #expect(append(&assembly, [1, 2], first: true, final: false, announced: 7) == .overLimit)
        #expect(assembly.pendingCount == 0)
        var fits = MessageAssembly(limit: 8)
        #expect(append(&fits, [1, 2], first: true, final: true, announced: 6) == .partial)
        #expect(append(&fits, [3, 4, 5, 6, 7, 8], final: true) == .complete([1, 2, 3, 4, 5, 6, 7, 8], binary: false))
    }

    @Test func anEmptyFinalPieceEndsTheMessage() {
        var assembly = MessageAssembly(limit: 8)
        #expect(append(&assembly, Array("ab".utf8), first: true, final: false) == .partial)
        #expect(append(&assembly, [], final: true) == .complete(Array("ab".utf8), binary: false))
        #expect(append(&assembly, [], first: true, final: true) == .complete([], binary: false))
    }
}
