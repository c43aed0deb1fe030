import Testing

@testable import KeyscopeClient

/// Fragments (and the chunks lws hands over) join into whole messages, within the limit.
@Suite struct MessageAssemblerTests {
    @Test func aSinglePieceIsAWholeMessage() {
        var assembler = MessageAssembler(limit: 16)
        #expect(assembler.append(Array("{}".utf8), isFinal: true) == .complete(Array("{}".utf8)))
        #expect(assembler.pendingCount == 0)
    }

    @Test func piecesJoinInOrderUntilTheFinalOne() {
        var assembler = MessageAssembler(limit: 64)
        #expect(assembler.append(Array(#"{"type":"#.utf8), isFinal: false) == .partial)
        #expect(assembler.append(Array(#""gap","from""#.utf8), isFinal: false) == .partial)
        #expect(assembler.pendingCount == 20)
        #expect(
            assembler.append(Array(":1}".utf8), isFinal: true) == .complete(Array(#"{"type":"gap","from":1}"#.utf8)))
        #expect(assembler.pendingCount == 0)
        // The next message starts afresh.
        #expect(assembler.append(Array("[]".utf8), isFinal: true) == .complete(Array("[]".utf8)))
    }

    @Test func aMessageOfExactlyTheLimitPassesAndOneByteMoreDoesNot() {
        var assembler = MessageAssembler(limit: 8)
        #expect(assembler.append([UInt8](repeating: 0x31, count: 5), isFinal: false) == .partial)
        #expect(
            assembler.append([UInt8](repeating: 0x31, count: 3), isFinal: true) == .complete(Array("11111111".utf8)))
        #expect(assembler.append([UInt8](repeating: 0x31, count: 5), isFinal: false) == .partial)
        #expect(assembler.append([UInt8](repeating: 0x31, count: 4), isFinal: false) == .tooLarge)
        #expect(assembler.pendingCount == 0)
        #expect(assembler.append([UInt8](repeating: 0x31, count: 9), isFinal: true) == .tooLarge)
    }

    @Test func anEmptyFinalPieceEndsTheMessage() {
        var assembler = MessageAssembler(limit: 8)
        #expect(assembler.append(Array("ab".utf8), isFinal: false) == .partial)
        #expect(assembler.append([], isFinal: true) == .complete(Array("ab".utf8)))
        #expect(assembler.append([], isFinal: true) == .complete([]))
    }
}
