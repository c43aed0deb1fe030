import KeyscopeCodec
import Testing

@Suite struct JanssonLinkTests {
    @Test func linksTheSystemJansson() {
        #expect(JanssonCodec.janssonVersion.hasPrefix("2."))
    }
}
