import Foundation
import KeyscopeCore
import Testing

/// `StoreID` compares by scope and description and hashes its description alone: that must agree with comparing
/// scope and storage (file storages by path), for ids that print alike without being equal too.
@Suite struct StoreIDTests {
    static let scopes: [Scope] = [
        .app, .scenario(id: "checkout"), .scenario(id: "a"), .scenario(id: "a/file:"), .scenario(id: "é"),
    ]
    static let storages: [Storage] = [
        .memory, .userPrefs(suite: nil), .userPrefs(suite: ""), .userPrefs(suite: "com.shop"),
        .userPrefs(suite: "e\u{301}"), .userPrefs(suite: "memory"), .backend(namespace: "team"),
        .backend(namespace: "memory"), .file(url: URL(filePath: "/memory")), .file(url: URL(filePath: "/tmp/a.json")),
        .file(url: URL(fileURLWithPath: "/tmp/a.json")), .file(url: URL(string: "file:///tmp/a.json")!),
        .file(url: URL(filePath: "a.json", relativeTo: URL(filePath: "/tmp/"))),
        .file(url: URL(filePath: "/tmp/b.json")), .secrets(service: "com.shop.api"), .secrets(service: "team"),
        .backend(namespace: "secrets.com.shop.api"),
    ]

    @Test func equalityIsScopeAndStorageAndEqualIDsHashAlike() {
        let ids = Self.scopes.flatMap { scope in Self.storages.map { StoreID(scope: scope, storage: $0) } }
        for lhs in ids {
            for rhs in ids {
                let expected = lhs.scope == rhs.scope && lhs.storage == rhs.storage
                #expect((lhs == rhs) == expected, "\(lhs) vs \(rhs)")
                if expected {
                    #expect(lhs.hashValue == rhs.hashValue, "\(lhs) vs \(rhs)")
                    #expect(lhs.description == rhs.description)
                }
            }
        }
        let sameFile = [URL(filePath: "/tmp/a.json"), URL(string: "file:///tmp/a.json")!]
            .map { StoreID(scope: .app, storage: .file(url: $0)) }
        #expect(Set(sameFile).count == 1)
        // A scenario made with a `/` in its id prints like another scope and storage: the scope keeps them apart.
        let memory = StoreID(scope: .scenario(id: "a/file:"), storage: .memory)
        let file = StoreID(scope: .scenario(id: "a"), storage: .file(url: URL(filePath: "/memory")))
        #expect(memory.description == file.description)
        #expect(memory != file)
    }

    @Test func theDescriptionIsTheScopeAndTheStorage() {
        let id = StoreID(scope: .scenario(id: "checkout"), storage: .file(url: URL(filePath: "/var/lib/s.json")))
        #expect(id.description == "scenario:checkout/file:/var/lib/s.json")
        #expect(StoreID(id.description) == id)
    }

    @Test func aSecretsStoragePrintsAndParsesAsSecretsColonService() {
        let id = StoreID(scope: .app, storage: .secrets(service: "com.shop.api"))
        #expect(id.description == "app/secrets:com.shop.api")
        #expect(StoreID("app/secrets:com.shop.api") == id)
        #expect(StoreID("app/secrets:com.shop.api")?.storage == .secrets(service: "com.shop.api"))
        #expect(Storage(idComponent: "secrets:") == nil)
        #expect(StoreID("app/secrets:a/b") == nil)
        #expect(id != StoreID(scope: .app, storage: .backend(namespace: "com.shop.api")))
    }

    /// The secret-store mirrors' former ids (`app/backend:secrets.<service>`) read as `app/secrets:<service>` from
    /// recorded data, and only there: a live id is taken as it is.
    @Test func aRecordedSecretMirrorIDReadsAsItsCurrentForm() {
        #expect(StoreID.recorded("app/backend:secrets.com.shop.api")?.description == "app/secrets:com.shop.api")
        #expect(StoreID.recorded("app/backend:secrets.com.shop.api")?.storage == .secrets(service: "com.shop.api"))
        #expect(StoreID("app/backend:secrets.com.shop.api")?.storage == .backend(namespace: "secrets.com.shop.api"))
        // Ids that were never mirrors stay as they are.
        for text in [
            "app/backend:team", "app/backend:secrets.", "app/backend:secretsX", "scenario:x/backend:secrets.s",
            "app/secrets:s", "app/memory", "app/userPrefs:secrets.s",
        ] {
            #expect(StoreID.recorded(text) == StoreID(text), "\(text)")
            #expect(StoreID.recorded(text)?.description == text)
        }
        #expect(StoreID.recorded("app/nothing") == nil)
    }
}
