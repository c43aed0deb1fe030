import Foundation
import KeyscopeCore
import KeyscopeTunables
import Testing

extension TunablesTests {
    /// The writable copy: first run, restarts, atomic saves, and files that cannot be used.
    @Suite struct FileTests {
        let defaults: StoreValue = ["toolbar_height": 44, "title": "Shop", "ratio": 0.5]

        @Test func theFirstRunCopiesTheDefaultsThenOnlyTheCopyIsReadAndWritten() throws {
            let sandbox = try Sandbox(defaults: defaults)
            let defaultsBytes = try Data(contentsOf: sandbox.defaultsURL)
            // A bundle is often read-only; the copy must still be writable.
            try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: sandbox.defaultsURL.path)

            let tunables = try sandbox.open()
            #expect(try Data(contentsOf: sandbox.fileURL) == defaultsBytes)
            #expect(tunables.getAll() == defaults.objectValue)
            #expect(tunables.storeID.description == "app/file:\(sandbox.fileURL.path)")
            #expect(sandbox.registry.store(tunables.storeID) === tunables.store)

            try tunables.set("toolbar_height", 48)
            try tunables.flush()
            #expect(try sandbox.fileValue()["toolbar_height"] == 48)
            #expect(try Data(contentsOf: sandbox.defaultsURL) == defaultsBytes, "the defaults are never written")
            tunables.stop()

            // The copy, not the defaults, is what the next run reads, even when the defaults change.
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: sandbox.defaultsURL.path)
            try write(["toolbar_height": 10, "title": "New", "ratio": 0.5], to: sandbox.defaultsURL)
            let again = try sandbox.open()
            #expect(again.get("toolbar_height") == 48)
            #expect(again.get("title") == "Shop")
            #expect(again.defaults["toolbar_height"] == 10)
        }

        @Test func savesAreAtomicPrettyAndSeenAfterARestart() throws {
            let sandbox = try Sandbox(defaults: defaults)
            let tunables = try sandbox.open()
            try tunables.setAll(["toolbar_height": 52, "title": "Tea $hop"])
            try tunables.flush()
            let text = try String(contentsOf: sandbox.fileURL, encoding: .utf8)
            #expect(text == "{\n  \"ratio\": 0.5,\n  \"title\": \"Tea $hop\",\n  \"toolbar_height\": 52\n}\n")
            let leftovers = try FileManager.default.contentsOfDirectory(
                atPath: sandbox.fileURL.deletingLastPathComponent().path)
            #expect(leftovers == ["live-constants.json"], "no temporary file is left beside the copy")
            tunables.stop()

            let restarted = try sandbox.open()
            #expect(restarted.getAll() == ["toolbar_height": 52, "title": "Tea $hop", "ratio": 0.5])
        }

        @Test func releasingTheObjectSavesAndLeavesTheRegistry() throws {
            let sandbox = try Sandbox(defaults: defaults)
            var id: StoreID?
            do {
                let tunables = try sandbox.open()
                id = tunables.storeID
                tunables.store.set("title", "Unsaved yet")
            }
            #expect(sandbox.registry.store(try #require(id)) == nil)
            #expect(try sandbox.fileValue()["title"] == "Unsaved yet")
        }

        @Test func keysTheDefaultsGainedAreAddedToAnExistingCopy() throws {
            let sandbox = try Sandbox(defaults: defaults)
            try write(["toolbar_height": 60, "extra": true], to: sandbox.fileURL)
            let tunables = try sandbox.open()
            #expect(tunables.getAll() == ["toolbar_height": 60, "extra": true, "title": "Shop", "ratio": 0.5])
            try tunables.flush()
            #expect(try sandbox.fileValue() == .object(tunables.getAll()))
        }

        @Test func aMissingDefaultsFileIsAClearError() throws {
            let sandbox = try Sandbox()
            let error = #expect(throws: TunablesError.self) { try sandbox.open() }
            #expect(error?.code == .missingFile)
            #expect(error?.message.contains(sandbox.defaultsURL.path) == true)
            #expect(!FileManager.default.fileExists(atPath: sandbox.fileURL.path))
        }

        @Test func aCorruptCopyIsAClearErrorAndIsLeftAsItIs() throws {
            let sandbox = try Sandbox(defaults: defaults)
            let corrupt = "{\n  \"toolbar_height\": 44,\n  \"title\": \"Shop\n}\n"
            try FileManager.default.createDirectory(
                at: sandbox.fileURL.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(corrupt.utf8).write(to: sandbox.fileURL)
            let error = #expect(throws: TunablesError.self) { try sandbox.open() }
            #expect(error?.code == .badFile)
            #expect(error?.message.contains(sandbox.fileURL.path) == true)
            #expect(error?.message.contains("at byte") == true)
            #expect(try String(contentsOf: sandbox.fileURL, encoding: .utf8) == corrupt)
            #expect(sandbox.registry.stores.isEmpty, "nothing was registered")
        }

        @Test(arguments: ["[1, 2]", "{\"a\": 1,}", "", "{\"a\": 1, \"a\": 2}"])
        func copiesThatAreNotAJSONObjectAreRefused(text: String) throws {
            let sandbox = try Sandbox(defaults: defaults)
            try FileManager.default.createDirectory(
                at: sandbox.fileURL.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: sandbox.fileURL)
            #expect(throws: TunablesError.self) { try sandbox.open() }
            #expect(try Data(contentsOf: sandbox.fileURL) == Data(text.utf8))
        }

        @Test func aDefaultsFileThatDoesNotParseIsAClearError() throws {
            let sandbox = try Sandbox()
            try Data("{\"a\": nope}".utf8).write(to: sandbox.defaultsURL)
            let error = #expect(throws: TunablesError.self) { try sandbox.open() }
            #expect(error?.code == .badFile)
            #expect(error?.message.contains("defaults file") == true)
        }

        @Test func oneInstancePerFileAndRegistry() throws {
            let sandbox = try Sandbox(defaults: defaults)
            let first = try sandbox.open()
            let error = #expect(throws: TunablesError.self) { try sandbox.open() }
            #expect(error?.code == .store)
            first.stop()
            #expect(first.isStopped)
            #expect(throws: TunablesError.self) { try first.set("title", "after stop") }
            _ = try sandbox.open()
        }

        @Test func theDefaultLocationFollowsXDGOnLinux() {
            #if os(Linux)
            let xdg = TunablesLocation.defaultFileURL(
                appName: "shop", environment: ["XDG_DATA_HOME": "/srv/data", "HOME": "/home/u"])
            #expect(xdg.path == "/srv/data/shop/live-constants.json")
            let home = TunablesLocation.defaultFileURL(appName: "shop", environment: ["HOME": "/home/u"])
            #expect(home.path == "/home/u/.local/share/shop/live-constants.json")
            let relative = TunablesLocation.defaultFileURL(
                appName: "shop", environment: ["XDG_DATA_HOME": "data", "HOME": "/home/u"])
            #expect(relative.path == "/home/u/.local/share/shop/live-constants.json")
            #endif
            let schema = TunablesLocation.schemaURL(besideValuesFile: URL(fileURLWithPath: "/b/live-constants.json"))
            #expect(schema.path == "/b/live-constants.schema.json")
        }
    }
}
