import Foundation
import KeyscopeCore
import Testing

/// The encoders' byte buffer keeps every byte, in order, whether it stays in its scratch memory or moves to the heap.
@Suite struct JSONBufferTests {
    @Test func piecesAreKeptInOrder() {
        let bytes = JSONBuffer.withScratch { buffer in
            buffer.append(#"{"seq":"#)
            buffer.appendDecimal(42)
            buffer.append(UInt8(ascii: ","))
            buffer.append(contentsOf: Array(#""é":"#.utf8))
            let date = buffer.appendUninitialized(2)
            date[0] = UInt8(ascii: "0")
            date[1] = UInt8(ascii: "7")
            buffer.append(UInt8(ascii: "}"))
            #expect(buffer.count == #"{"seq":42,"é":07}"#.utf8.count)
            return buffer.bytes
        }
        #expect(String(decoding: bytes, as: UTF8.self) == #"{"seq":42,"é":07}"#)
    }

    @Test func aBufferThatOutgrowsItsScratchMovesWithItsBytes() {
        // 16 bytes of scratch, then ten thousand pieces of every kind: several moves, each keeping what was written.
        var expected: [UInt8] = []
        let bytes = JSONBuffer.withScratch(capacity: 16) { buffer in
            for index in 0..<10_000 {
                buffer.appendDecimal(index)
                expected += Array(String(index).utf8)
                buffer.append(UInt8(ascii: ","))
                expected.append(UInt8(ascii: ","))
                let run = Array(repeating: UInt8(truncatingIfNeeded: index % 26) + 0x61, count: index % 300)
                buffer.append(contentsOf: run)
                expected += run
            }
            #expect(buffer.data == Data(expected))
            return buffer.bytes
        }
        #expect(bytes == expected)
        #expect(bytes.count > 1_000_000)
    }

    @Test func uuidsAreTheirLowerCasedString() {
        for uuid in [UUID(), UUID(uuid: (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 255))] {
            let text = JSONBuffer.withScratch { buffer in
                buffer.appendLowercased(uuid)
                return String(decoding: buffer.bytes, as: UTF8.self)
            }
            #expect(text == uuid.uuidString.lowercased())
        }
    }

    @Test func valuesWrittenIntoABufferMatchTheirJSONBytes() throws {
        let text = ##"{"b":[1,2.5,"x\"y\u0001",null,true,{"$color":"#FF8800"}],"a":{"$$tag":-9223372036854775808}}"##
        let value = try StoreValue(jsonText: text)
        let written = JSONBuffer.withScratch(capacity: 16) { buffer in
            value.appendJSON(to: &buffer, sortedKeys: true)
            return buffer.bytes
        }
        #expect(written == value.jsonBytes(sortedKeys: true))
        #expect(String(decoding: written, as: UTF8.self).hasPrefix(#"{"a":{"$$tag":-9223372036854775808},"b":[1,2.5,"#))
    }
}
