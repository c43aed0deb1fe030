#if canImport(Glibc)
import Foundation
import Testing

@testable import KeyscopeSecrets

/// The GError → SecretStoreError mapping, and a real call without a bus (in a child process, so that libsecret's
/// process-wide connection is fresh there).
@Suite("Secret Service errors")
struct SecretServiceErrorTests {
    // GError codes are C enum values (stable ABI): the comments name them.
    @Test(
        "no bus, no service, a closed connection or a locked keyring is unavailable",
        arguments: [
            (SecretServiceErrors.Domain.dbus, Int32(2)),  // G_DBUS_ERROR_SERVICE_UNKNOWN
            (.dbus, 3),  // G_DBUS_ERROR_NAME_HAS_NO_OWNER
            (.dbus, 20),  // G_DBUS_ERROR_TIMED_OUT
            (.io, 1),  // G_IO_ERROR_NOT_FOUND (no socket)
            (.io, 18),  // G_IO_ERROR_CLOSED
            (.io, 39),  // G_IO_ERROR_CONNECTION_REFUSED
            (.secret, 2),  // SECRET_ERROR_IS_LOCKED
            (.secret, 3),  // SECRET_ERROR_NO_SUCH_OBJECT (no default collection)
        ])
    func unavailable(domain: SecretServiceErrors.Domain, code: Int32) {
        let error = SecretServiceErrors.map(domain: domain, code: code, message: "m", while: "read api / token")
        #expect(error.code == .unavailable)
        #expect(error.message.hasPrefix("could not read api / token: "))
        #expect(error.message.contains("(m)"))
    }

    @Test("a locked keyring says how to unlock it")
    func lockedMessage() {
        let error = SecretServiceErrors.map(domain: .secret, code: 2, message: "locked", while: "write a / b")
        #expect(error.message.contains("keyring is locked"))
        #expect(error.message.contains("gnome-keyring-daemon --unlock"))
    }

    @Test(
        "other failures are io, unless they happened while connecting",
        arguments: [
            (SecretServiceErrors.Domain.dbus, Int32(9)),  // G_DBUS_ERROR_ACCESS_DENIED
            (.dbus, 16),  // G_DBUS_ERROR_INVALID_ARGS
            (.secret, 1),  // SECRET_ERROR_PROTOCOL
            (.io, 0),  // G_IO_ERROR_FAILED
            (.other("g-spawn-error"), 0),
        ])
    func io(domain: SecretServiceErrors.Domain, code: Int32) {
        let error = SecretServiceErrors.map(domain: domain, code: code, message: "m", while: "delete a / b")
        #expect(error.code == .io)
        #expect(error.message.contains("could not delete a / b: m"))
        let connecting = SecretServiceErrors.map(
            domain: domain, code: code, message: "m", while: "connect", connecting: true)
        #expect(connecting.code == .unavailable)
    }

    @Test("a GError is freed and mapped; a missing one is io")
    func missingError() {
        let error = SecretServiceErrors.take(nil, while: "read a / b")
        #expect(error.code == .io)
        #expect(error.message.contains("without saying why"))
    }

    @Test("a store whose session bus is not there throws unavailable (in a child process)")
    func noBus() async {
        await #expect(processExitsWith: .success) {
            exit(callsWithoutBusAreUnavailable() ? 0 : 1)
        }
    }
}

/// Runs in the exit test's child process: points libsecret at a bus that is not there, then `true` when a listing
/// and a write both throw `unavailable`.
private func callsWithoutBusAreUnavailable() -> Bool {
    setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/keyscope-no-bus", 1)
    guard let store = try? SecretServiceStore(appID: "dev.keyscope.tests.no-bus") else { return false }
    let listed = Result { () throws(SecretStoreError) in try store.services() }
    guard case .failure(let error) = listed, error.code == .unavailable, error.message.contains("cannot be reached")
    else { return false }
    let written = Result { () throws(SecretStoreError) in
        try store.write(Data("x".utf8), service: "api", account: "token")
    }
    guard case .failure(let writeError) = written else { return false }
    return writeError.code == .unavailable
}
#endif
