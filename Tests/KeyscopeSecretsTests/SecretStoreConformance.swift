import Foundation
import KeyscopeSecrets
import Testing

/// What every backend must do, checked on `store` (which must hold no items of its app yet) and `other`, a store of
/// another app on the same backend (and, for the file store, in the same directory). Leaves both stores empty.
func checkConformance(of store: any SecretStore, other: any SecretStore) throws {
    let service = "dev.keyscope.tests.api"
    #expect(try store.services() == [])
    #expect(try store.items(service: service) == [])
    #expect(try store.read(service: service, account: "token") == nil)
    #expect(try store.delete(service: service, account: "token") == false)

    // Text, then a replacement.
    let before = Date().addingTimeInterval(-2)
    try store.write(Data("s3cret".utf8), service: service, account: "token")
    #expect(try store.read(service: service, account: "token") == Data("s3cret".utf8))
    try store.write(Data("n3w value".utf8), service: service, account: "token")
    #expect(try store.read(service: service, account: "token") == Data("n3w value".utf8))
    let listed = try store.items(service: service)
    #expect(listed.map(\.account) == ["token"])
    #expect(listed.first?.service == service)
    #expect(listed.first?.value == Data("n3w value".utf8))
    let modified = try #require(listed.first?.modified, "\(store.backendName) keeps a modification time")
    #expect(modified >= before && modified <= Date().addingTimeInterval(2))

    // Bytes that are not text, text with a NUL, an empty value, and a switch back to text: each round-trips.
    let values: [Data] = [
        Data([0x00, 0xFF, 0x80, 0xC3, 0x28, 0x01]),
        Data("a\u{0}b".utf8),
        Data(),
        Data((0...255).map { UInt8($0) }),
        Data("plain again ✓".utf8),
    ]
    for value in values {
        try store.write(value, service: service, account: "blob")
        #expect(try store.read(service: service, account: "blob") == value, "\(store.backendName): \(value as NSData)")
        #expect(try store.items(service: service).filter { $0.account == "blob" }.map(\.value) == [value])
    }

    // Several accounts and services come back sorted; names may be any printable Unicode.
    try store.write(Data("2".utf8), service: service, account: "b")
    try store.write(Data("1".utf8), service: service, account: "a")
    try store.write(Data("☕".utf8), service: "Café ☕ / tests", account: "ユーザー name")
    #expect(try store.items(service: service).map(\.account) == ["a", "b", "blob", "token"])
    #expect(try store.services() == ["Café ☕ / tests", service].sorted())
    #expect(try store.read(service: "Café ☕ / tests", account: "ユーザー name") == Data("☕".utf8))

    // Another app's items stay apart, even under the same service and account.
    try other.write(Data("theirs".utf8), service: service, account: "token")
    try other.write(Data("x".utf8), service: "dev.keyscope.tests.other-only", account: "x")
    #expect(try !store.services().contains("dev.keyscope.tests.other-only"))
    #expect(try store.read(service: service, account: "token") == Data("n3w value".utf8))
    #expect(try store.items(service: "dev.keyscope.tests.other-only") == [])
    #expect(try other.read(service: service, account: "token") == Data("theirs".utf8))
    #expect(try other.services() == ["dev.keyscope.tests.other-only", service].sorted())

    try checkBadNames(store, service: service)

    // Deletes: true once, then false; the last item of a service takes the service with it.
    #expect(try store.delete(service: service, account: "token") == true)
    #expect(try store.read(service: service, account: "token") == nil)
    #expect(try store.delete(service: service, account: "token") == false)
    #expect(try other.read(service: service, account: "token") == Data("theirs".utf8))
    #expect(try store.delete(service: "Café ☕ / tests", account: "ユーザー name") == true)
    #expect(try store.services() == [service])
    for account in ["a", "b", "blob"] {
        #expect(try store.delete(service: service, account: account) == true)
    }
    #expect(try store.services() == [])
    #expect(try other.delete(service: service, account: "token") == true)
    #expect(try other.delete(service: "dev.keyscope.tests.other-only", account: "x") == true)
    #expect(try other.services() == [])
}

/// Empty names and names with control characters are refused with `badName` by every call that takes them.
private func checkBadNames(_ store: any SecretStore, service: String) throws {
    for bad in ["", "new\nline", "tab\there", "nul\u{0}", "del\u{7F}"] {
        for (what, call) in [
            ("read service", { _ = try store.read(service: bad, account: "a") }),
            ("read account", { _ = try store.read(service: service, account: bad) }),
            ("write service", { try store.write(Data(), service: bad, account: "a") }),
            ("write account", { try store.write(Data(), service: service, account: bad) }),
            ("delete account", { _ = try store.delete(service: service, account: bad) }),
            ("items", { _ = try store.items(service: bad) }),
        ] as [(String, () throws -> Void)] {
            let error = #expect(throws: SecretStoreError.self, "\(store.backendName) \(what) \(bad.debugDescription)") {
                try call()
            }
            #expect(error?.code == .badName)
        }
    }
}
