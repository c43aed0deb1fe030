import Foundation
import Synchronization
import Testing

@testable import KeyscopeSecrets

@Suite("FileSecretStore")
struct FileSecretStoreTests {
    @Test("does what every secret store does")
    func conformance() throws {
        try withTemporaryDirectory { directory in
            let store = try FileSecretStore(directory: directory, appID: "dev.keyscope.tests.app")
            let other = try FileSecretStore(directory: directory, appID: "dev.keyscope.tests.other")
            try checkConformance(of: store, other: other)
            #expect(store.backendName == "file")
        }
    }

    @Test("keeps one 0600 file per app in a 0700 directory it creates")
    func permissionsOfFileAndDirectory() throws {
        try withTemporaryDirectory { root in
            let directory = root.appendingPathComponent("nested/secrets", isDirectory: true)
            let store = try FileSecretStore(directory: directory, appID: "com.shop")
            #expect(permissions(directory.path) == 0o700)
            #expect(permissions(root.appendingPathComponent("nested").path) == 0o700)
            #expect(store.fileURL.path == directory.appendingPathComponent("com.shop.secrets.json").path)
            #expect(permissions(store.fileURL.path) == nil, "nothing is written before the first write")

            let previous = umask(0)  // The file must be 0600 whatever the umask lets through.
            defer { umask(previous) }
            try store.write(Data("s3cret".utf8), service: "api", account: "token")
            #expect(permissions(store.fileURL.path) == 0o600)
            try store.write(Data("again".utf8), service: "api", account: "token")
            #expect(permissions(store.fileURL.path) == 0o600)
        }
    }

    @Test("leaves an existing directory's mode alone")
    func existingDirectory() throws {
        try withTemporaryDirectory { directory in
            chmod(directory.path, 0o755)
            _ = try FileSecretStore(directory: directory, appID: "com.shop")
            #expect(permissions(directory.path) == 0o755)
        }
    }

    @Test("stores values in base64 and each item's modification time in ISO 8601")
    func fileFormat() throws {
        try withTemporaryDirectory { directory in
            let store = try FileSecretStore(directory: directory, appID: "com.shop")
            try store.write(Data([0xFF, 0x00, 0x10]), service: "api", account: "key")
            let json = try JSONSerialization.jsonObject(with: Data(contentsOf: store.fileURL)) as? [String: Any]
            #expect(json?["format"] as? String == "keyscope-secrets")
            #expect(json?["version"] as? Int == 1)
            #expect(json?["app"] as? String == "com.shop")
            let entry = ((json?["services"] as? [String: Any])?["api"] as? [String: Any])?["key"] as? [String: Any]
            #expect(entry?["value"] as? String == Data([0xFF, 0x00, 0x10]).base64EncodedString())
            let time = try #require(entry?["modified"] as? String)
            let parsed = try Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(time)
            #expect(abs(parsed.timeIntervalSinceNow) < 5)

            // A second store reads the same time back (to the millisecond the file keeps).
            let again = try FileSecretStore(directory: directory, appID: "com.shop")
            let first = try #require(try store.items(service: "api").first?.modified)
            let second = try #require(try again.items(service: "api").first?.modified)
            #expect(abs(first.timeIntervalSince(second)) < 0.002)
        }
    }

    @Test("replaces the file atomically: it always parses and no temporary file is left")
    func atomicReplace() async throws {
        let directory = try makeTemporaryDirectory("atomic")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try FileSecretStore(directory: directory, appID: "com.shop")
        let path = store.fileURL.path
        try store.write(Data("first".utf8), service: "api", account: "seed")
        let writers = 4
        let writesEach = 25
        let done = StopFlag()
        async let unparsed: Int = Task.detached {
            var failures = 0
            while !done.isSet {
                guard let data = FileManager.default.contents(atPath: path) else {
                    failures += 1  // The file is always there: a rename replaces it in one step.
                    continue
                }
                if (try? JSONSerialization.jsonObject(with: data)) == nil { failures += 1 }
            }
            return failures
        }.value
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<writers {
                // Half the writers use their own store instance (as another process would), half share one.
                let target: FileSecretStore
                if writer.isMultiple(of: 2) {
                    target = store
                } else {
                    target = try FileSecretStore(directory: directory, appID: "com.shop")
                }
                group.addTask {
                    for index in 0..<writesEach {
                        try target.write(Data("value \(index)".utf8), service: "api", account: "w\(writer)-\(index)")
                    }
                }
            }
            try await group.waitForAll()
        }
        done.set()
        #expect(await unparsed == 0)
        #expect(try store.items(service: "api").count == writers * writesEach + 1, "no write was lost")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(names == ["com.shop.secrets.json"])
    }

    @Test(
        "reports a corrupt file, naming it, and never writes over it",
        arguments: [
            "{not json",
            #"{"format": "keyscope-secrets", "version": 1, "app": "com.shop", "services": {"api": {"k": {"value": "%%%"}}}}"#,
            #"{"format": "other", "version": 1, "app": "com.shop", "services": {}}"#,
            #"{"format": "keyscope-secrets", "version": 9, "app": "com.shop", "services": {}}"#,
            #"{"format": "keyscope-secrets", "version": 1, "app": "com.other", "services": {}}"#,
            "",
        ])
    func corruptFile(content: String) throws {
        try withTemporaryDirectory { directory in
            let store = try FileSecretStore(directory: directory, appID: "com.shop")
            try Data(content.utf8).write(to: store.fileURL)
            for call in [
                { _ = try store.services() },
                { _ = try store.read(service: "api", account: "k") },
                { try store.write(Data("new".utf8), service: "api", account: "k") },
                { _ = try store.delete(service: "api", account: "k") },
            ] as [() throws -> Void] {
                let error = #expect(throws: SecretStoreError.self) { try call() }
                #expect(error?.code == .io)
                #expect(error?.message.contains(store.fileURL.path) == true, "\(error?.message ?? "")")
                #expect(error?.message.contains("will not write over it") == true)
            }
            #expect(try Data(contentsOf: store.fileURL) == Data(content.utf8), "the file is left as it was")
        }
    }

    @Test("refuses app IDs that cannot name a file", arguments: ["", "a/b", ".", "..", "line\nbreak"])
    func badAppID(appID: String) throws {
        try withTemporaryDirectory { directory in
            let error = #expect(throws: SecretStoreError.self) {
                try FileSecretStore(directory: directory, appID: appID)
            }
            #expect(error?.code == .badName)
        }
    }

    @Test("says so when the directory is a file")
    func directoryIsAFile() throws {
        try withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("plain")
            try Data().write(to: file)
            let error = #expect(throws: SecretStoreError.self) {
                try FileSecretStore(directory: file, appID: "com.shop")
            }
            #expect(error?.code == .io)
            #expect(error?.message.contains("is not a directory") == true)
        }
    }

    @Test("two stores on one file see each other's writes and deletes at once")
    func twoInstances() throws {
        try withTemporaryDirectory { directory in
            let first = try FileSecretStore(directory: directory, appID: "com.shop")
            let second = try FileSecretStore(directory: directory, appID: "com.shop")
            #expect(try second.read(service: "api", account: "token") == nil)  // Caches "no file".
            try first.write(Data("one".utf8), service: "api", account: "token")
            #expect(try second.read(service: "api", account: "token") == Data("one".utf8))
            try second.write(Data("two".utf8), service: "api", account: "token")
            try second.write(Data("x".utf8), service: "web", account: "cookie")
            #expect(try first.read(service: "api", account: "token") == Data("two".utf8))
            #expect(try first.services() == ["api", "web"])
            #expect(try first.delete(service: "web", account: "cookie"))
            #expect(try second.services() == ["api"])
            // Interleaved writes of different accounts keep both (each write starts from the newest file).
            try first.write(Data("a".utf8), service: "api", account: "a")
            try second.write(Data("b".utf8), service: "api", account: "b")
            #expect(try first.items(service: "api").map(\.account) == ["a", "b", "token"])
        }
    }

    @Test("reads a hand-written file, times with or without milliseconds")
    func handWritten() throws {
        try withTemporaryDirectory { directory in
            let store = try FileSecretStore(directory: directory, appID: "com.shop")
            let text = #"""
                {"format": "keyscope-secrets", "version": 1, "app": "com.shop", "services": {"api": {
                  "a": {"value": "MQ==", "modified": "2026-11-21T10:00:00Z"},
                  "b": {"value": "Mg==", "modified": "2026-11-21T10:00:00.250Z"},
                  "c": {"value": ""}}}}
                """#
            try Data(text.utf8).write(to: store.fileURL)
            let items = try store.items(service: "api")
            #expect(items.map(\.value) == [Data("1".utf8), Data("2".utf8), Data()])
            #expect(items[1].modified?.timeIntervalSince(try #require(items[0].modified)) == 0.25)
            #expect(items[2].modified == nil)
        }
    }

    @Test("a write after the file was removed starts a new file")
    func fileRemoved() throws {
        try withTemporaryDirectory { directory in
            let store = try FileSecretStore(directory: directory, appID: "com.shop")
            try store.write(Data("one".utf8), service: "api", account: "token")
            try FileManager.default.removeItem(at: store.fileURL)
            #expect(try store.services() == [])
            try store.write(Data("two".utf8), service: "api", account: "other")
            #expect(try store.items(service: "api").map(\.account) == ["other"])
        }
    }
}

/// A flag one task sets and another polls.
private final class StopFlag: Sendable {
    private let value = Atomic(false)
    var isSet: Bool { value.load(ordering: .acquiring) }
    func set() { value.store(true, ordering: .releasing) }
}
