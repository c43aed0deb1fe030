import Foundation
import KeyscopeCodec
import KeyscopeCore
import KeyscopeRecording
import KeyscopeTesting
import Testing

/// The state digest is the SHA-256 of exactly the bytes `keyscope state` prints.
@Suite struct DigestTests {
    @Test func theDigestIsTheHashOfTheStateBytes() throws {
        let result = try RecordingReader.replay(Fixtures.url("broken/torn-tail.kslog"))
        let bytes = result.state.jsonBytes
        #expect(bytes.last == UInt8(ascii: "\n"))
        #expect(result.summary.stateDigest == SHA256.hash(bytes).hex)
        #expect(result.summary.stateDigest == result.state.digest.hex)
        #expect(result.summary.stateDigest.count == 64)
    }

    @Test func theDigestIsOfTheFinalStateEvenWhenAnEarlierSeqIsAskedFor() throws {
        let url = Fixtures.url("broken/torn-tail.kslog")
        let early = try RecordingReader.replay(url, upTo: 1)
        let whole = try RecordingReader.replay(url)
        #expect(early.summary == whole.summary)
        #expect(early.state != whole.state)
    }

    /// `keyscope state --at` wants no digest: the replay's counts leave it out, its summary adds it.
    @Test func onlyTheSummaryCarriesTheDigest() throws {
        let early = try RecordingReader.replay(Fixtures.url("broken/torn-tail.kslog"), upTo: 1)
        #expect(early.counts.stateDigest.isEmpty)
        var counts = early.counts
        counts.stateDigest = early.summary.stateDigest
        #expect(counts == early.summary)
        #expect(early.counts.tornTailBytes > 0)
    }

    @Test func statesThatDifferHaveDifferentDigests() throws {
        let one = try RecordingReader(bytes: TestLog.bytes([TestLog.header])).replay()
        let two = try RecordingReader(bytes: TestLog.bytes([TestLog.header, TestLog.setTotal(1, from: 90, to: 91)]))
            .replay()
        #expect(one.summary.stateDigest != two.summary.stateDigest)
    }
}
