import Testing

@testable import KeyscopeServer

/// Request bodies sent with `Transfer-Encoding: chunked`, which the server decodes itself.
@Suite struct ChunkedDecoderTests {
    /// Feeds `text` in pieces of `piece` bytes (the whole at once when 0); whether the body is whole, and its data.
    private func decode(_ text: String, piece: Int = 0, limit: Int = 1 << 20) throws -> (
        isComplete: Bool, data: [UInt8]
    ) {
        let bytes = Array(text.utf8)
        var decoder = ChunkedDecoder()
        var data: [UInt8] = []
        let step = piece == 0 ? max(1, bytes.count) : piece
        for start in stride(from: 0, to: bytes.count, by: step) {
            let part = Array(bytes[start..<min(bytes.count, start + step)])
            try part.withUnsafeBytes { try decoder.feed($0, into: &data, limit: limit) }
        }
        return (decoder.isComplete, data)
    }

    private let framed = "7\r\n{\"a\":1,\r\nA;name=value\r\n\"b\":[1,2]}\r\n0\r\nX-Trailer: yes\r\n\r\n"

    @Test(arguments: [0, 1, 2, 3, 5, 8, 13])
    func decodesChunksHoweverTheyArriveSplit(piece: Int) throws {
        let body = try decode(framed, piece: piece)
        #expect(body.isComplete)
        #expect(String(decoding: body.data, as: UTF8.self) == #"{"a":1,"b":[1,2]}"#)
    }

    @Test func decodesABodyOfManyOneByteChunks() throws {
        let data = (0..<50_000).map { _ in "x" }.joined()
        let text = data.map { "1\r\n\($0)\r\n" }.joined() + "0\r\n\r\n"
        let body = try decode(text, piece: 4096)
        #expect(body.isComplete)
        #expect(body.data == Array(data.utf8))
    }

    @Test func isNotCompleteUntilTheEmptyLineAfterTheLastChunk() throws {
        #expect(try !decode("3\r\nabc\r\n").isComplete)
        #expect(try !decode("3\r\nabc\r\n0\r\n").isComplete)
        #expect(try !decode("3\r\nabc\r\n0\r\nTrailer: 1\r\n").isComplete)
        #expect(try decode("3\r\nabc\r\n0\r\n\r\n").isComplete)
    }

    @Test func anEmptyBodyIsOnlyTheLastChunk() throws {
        let body = try decode("0\r\n\r\n")
        #expect(body.isComplete)
        #expect(body.data.isEmpty)
    }

    @Test func takesBareLineFeedsAndUpperCaseHex() throws {
        let body = try decode("1A\n" + String(repeating: "z", count: 26) + "\n0\n\n")
        #expect(body.isComplete)
        #expect(body.data.count == 26)
    }

    @Test func ignoresBytesAfterTheEnd() throws {
        let body = try decode("1\r\nx\r\n0\r\n\r\nGET / HTTP/1.1\r\n")
        #expect(body.isComplete)
        #expect(body.data == Array("x".utf8))
    }

    @Test(arguments: [
        ("zz\r\n", "not hexadecimal"),
        ("\r\nabc", "has no size"),
        (";ext\r\n", "has no size"),
        ("3\r\nabcdef\r\n", "longer than its size"),
        (String(repeating: "1", count: 2000), "over 1024 bytes"),
        ("0\r\n" + String(repeating: "T: v\r\n", count: 3000), "trailer section is over"),
    ])
    func refusesBrokenFramingSayingWhere(text: String, says: String) {
        #expect {
            _ = try decode(text)
        } throws: { error in
            guard case .malformed(let why) = error as? ChunkedDecoder.Failure else { return false }
            return why.contains(says)
        }
    }

    @Test func refusesAChunkOverTheLimitBeforeItsDataArrives() {
        #expect(throws: ChunkedDecoder.Failure.tooLarge) { try decode("5\r\nabcde\r\n6\r\n", limit: 10) }
        #expect(throws: ChunkedDecoder.Failure.tooLarge) { try decode("ffffffffffffffffff\r\n", limit: 10) }
        #expect(throws: Never.self) { try decode("5\r\nabcde\r\n5\r\nfghij\r\n0\r\n\r\n", limit: 10) }
    }
}
