import KeyscopeCore
import Testing

@testable import KeyscopeFleet

/// `FleetSecretGuard`: which requests would carry a secret's new value through Redis.
@Suite struct FleetSecretGuardTests {
    private func refused(_ json: String) throws -> Bool {
        let object = try #require(try StoreValue(jsonBytes: Array(json.utf8)).objectValue)
        return FleetSecretGuard.refusal(for: object) != nil
    }

    @Test func writesOfSecretsAreRefused() throws {
        #expect(try refused(#"{"type":"write","store":"app/secrets:com.shop.api","op":"set","path":"t","value":"x"}"#))
        #expect(try refused(#"{"type":"transaction","store":"app/secrets:com.shop.api","ops":[]}"#))
        #expect(
            try refused(#"{"type":"preference","op":"set","source":"secrets","container":"s","key":"k","value":1}"#))
        #expect(try refused(#"{"type":"fleet.route","method":"PUT","path":"/api/preferences/secrets/s/k"}"#))
    }

    @Test func everythingElseGoesThrough() throws {
        #expect(try !refused(#"{"type":"write","store":"app/memory","op":"set","path":"t","value":"x"}"#))
        #expect(try !refused(#"{"type":"preference","op":"delete","source":"secrets","container":"s","key":"k"}"#))
        #expect(
            try !refused(
                #"{"type":"preference","op":"set","source":"userDefaults","container":"s","key":"k","value":1}"#))
        #expect(try !refused(#"{"type":"fleet.route","method":"DELETE","path":"/api/preferences/secrets/s/k"}"#))
        #expect(try !refused(#"{"type":"fleet.route","method":"PUT","path":"/api/preferences/userDefaults/s/k"}"#))
        #expect(try !refused(#"{"type":"tune","key":"secret","value":1}"#))
    }
}
