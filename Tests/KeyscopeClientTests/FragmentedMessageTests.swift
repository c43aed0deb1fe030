import Testing

@testable import KeyscopeClient

/// Outgoing messages are cut into frames: first, continuations, last.
@Suite struct FragmentedMessageTests {
    @Test func aSmallMessageIsOneFirstAndLastFragment() {
        var message = FragmentedMessage(Array("{}".utf8), fragmentSize: 4)
        #expect(message.next() == .init(bytes: ArraySlice("{}".utf8), isFirst: true, isLast: true))
        #expect(message.isDone)
        #expect(message.next() == nil)
    }

    @Test func aLargeMessageIsCutIntoFragmentsThatJoinBackExactly() {
        let bytes = (0..<10).map { UInt8($0) }
        var message = FragmentedMessage(bytes, fragmentSize: 4)
        var fragments: [FragmentedMessage.Fragment] = []
        while let fragment = message.next() { fragments.append(fragment) }
        #expect(fragments.map(\.bytes.count) == [4, 4, 2])
        #expect(fragments.map(\.isFirst) == [true, false, false])
        #expect(fragments.map(\.isLast) == [false, false, true])
        #expect(fragments.flatMap(\.bytes) == bytes)
    }

    @Test func aMessageOfExactlyTwoFragmentsEndsOnTheSecond() {
        var message = FragmentedMessage([1, 2, 3, 4], fragmentSize: 2)
        #expect(message.next()?.isLast == false)
        #expect(message.next()?.isLast == true)
        #expect(message.next() == nil)
    }

    @Test func anEmptyMessageIsOneEmptyFinalFragment() {
        var message = FragmentedMessage([], fragmentSize: 4)
        #expect(message.next() == .init(bytes: [], isFirst: true, isLast: true))
        #expect(message.next() == nil)
    }
}
