import KeyscopeRecording
import Testing

@Suite struct RecordingErrorTests {
    @Test func namesTheLineWhenThereIsOne() {
        let error = RecordingError(.badSeq, line: 7, "seq 9 follows seq 7; seq must rise by exactly 1")
        #expect(error.description == "line 7: seq 9 follows seq 7; seq must rise by exactly 1")
        #expect(error.code == .badSeq)
    }

    @Test func fileWideErrorsHaveNoLine() {
        let error = RecordingError(.io, line: nil, "cannot open /nope.kslog: No such file or directory")
        #expect(error.description == "cannot open /nope.kslog: No such file or directory")
        #expect(error.line == nil)
    }
}
