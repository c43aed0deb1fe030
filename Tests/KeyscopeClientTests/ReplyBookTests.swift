import Testing

@testable import KeyscopeClient

/// Requests get fresh ids and their replies find them by id, once.
@Suite struct ReplyBookTests {
    @Test func idsRiseFromOneAndRepliesAreMatchedByIdInAnyOrder() {
        var book = ReplyBook<String>()
        let ids = (0..<3).map { _ in book.reserveID() }
        #expect(ids == [1, 2, 3])
        for (id, name) in zip(ids, ["a", "b", "c"]) { book.wait(id, name) }
        #expect(book.take(2) == "b")
        #expect(book.take(2) == nil)
        #expect(book.take(3) == "c")
        #expect(book.take(99) == nil)
        #expect(book.count == 1)
    }

    @Test func takeAllEmptiesTheBookInIdOrder() {
        var book = ReplyBook<Int>()
        for value in [10, 20, 30] { book.wait(book.reserveID(), value) }
        #expect(book.takeAll() == [10, 20, 30])
        #expect(book.count == 0)
        #expect(book.reserveID() == 4)
    }
}
