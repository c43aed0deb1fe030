import KeyscopeCodec
import KeyscopeCore
import Testing

/// What fuzz-codec found (docs/hardening.md), each kept as a test; the inputs are also seeds under
/// `fixtures/fuzz/codec/`.
@Suite struct FuzzRegressionTests {
    /// A log line of a `file:` store whose path its URL keeps in another form than it prints (relative, or
    /// `:memory`) decoded, encoded and decoded again to a line of another store (fixed in `Storage`'s equality;
    /// see also the core's `FuzzRegressionTests`).
    @Test(arguments: [
        #"{"patches":[{"new":"pickup","op":"set","path":"checkout.shipping"}],"seq":1,"store":"scenario:checkout/file:y","time":"2026-11-21T17:29:02.636326Z","txn":null}"#,
        #"{"event":"registered","root":{},"seq":43,"store":"scenario:checkout/file::memory","time":"2026-11-21T17:29:04.276281Z","version":"2.0.0"}"#,
    ])
    func aLogLineOfAFileStoreSurvivesARoundTrip(line: String) throws {
        let entry = try JanssonCodec.decodeLogEntry(Array(line.utf8))
        let again = try JanssonCodec.decodeLogEntry(try JanssonCodec.encode(entry))
        #expect(again == entry)
        #expect(again.event.storeID.description == entry.event.storeID.description)
    }
}
