import KeyscopeRecording
import Testing

/// The FIPS 180-4 test vectors, whole and fed in pieces.
@Suite struct SHA256Tests {
    @Test func standardVectors() {
        #expect(SHA256.hash([UInt8]()).hex == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(
            SHA256.hash(Array("abc".utf8)).hex == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        let the448Bits = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
        #expect(
            SHA256.hash(Array(the448Bits.utf8)).hex
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        let the896Bits =
            "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"
        #expect(
            SHA256.hash(Array(the896Bits.utf8)).hex
                == "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1")
    }

    @Test func aMillionAs() {
        var hash = SHA256()
        let thousand = [UInt8](repeating: UInt8(ascii: "a"), count: 1000)
        for _ in 0..<1000 { hash.update(thousand) }
        #expect(hash.finalize().hex == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test(arguments: [1, 3, 55, 56, 63, 64, 65, 127])
    func piecesGiveTheSameDigest(pieceSize: Int) {
        let bytes = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        var hash = SHA256()
        var index = 0
        while index < bytes.count {
            hash.update(bytes[index..<min(index + pieceSize, bytes.count)])
            index += pieceSize
        }
        #expect(hash.finalize() == SHA256.hash(bytes))
    }

    @Test(arguments: [55, 56, 57, 63, 64, 119, 120])
    func paddingAtTheBlockEdges(length: Int) {
        // Known digests of `length` times "a" at the lengths where the padding spills into another block.
        let known: [Int: String] = [
            55: "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318",
            56: "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a",
            57: "f13b2d724659eb3bf47f2dd6af1accc87b81f09f59f2b75e5c0bed6589dfe8c6",
            63: "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34",
            64: "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb",
            119: "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb",
            120: "2f3d335432c70b580af0e8e1b3674a7c020d683aa5f73aaaedfdc55af904c21c",
        ]
        let digest = SHA256.hash([UInt8](repeating: UInt8(ascii: "a"), count: length)).hex
        #expect(digest == known[length])
    }
}
