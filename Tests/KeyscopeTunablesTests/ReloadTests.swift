import Foundation
import InMemoryLogging
import KeyscopeCore
import KeyscopeTunables
import Logging
import Testing

extension TunablesTests {
    /// Edits other programs make to the file: applied live as one change, or refused with a log line.
    @Suite struct ReloadTests {
        static let modes: [Tunables.Watching] = [.automatic, .polling(interval: .milliseconds(20))]

        @Test(arguments: modes) func anEditorsSaveByRenameIsAppliedAsOneChange(watching: Tunables.Watching) throws {
            let sandbox = try Sandbox(defaults: ["a": 1, "b": "x", "gone": 0])
            let t = try sandbox.open(watching: watching)
            let log = ChangeLog(sandbox.registry)
            let edit = #"{"a": 2, "b": "x", "c": true}"#
            try writeByRename(edit, to: sandbox.fileURL)
            #expect(eventually { t.get("a") == 2 })
            #expect(t.getAll() == ["a": 2, "b": "x", "c": true])
            let changes = log.all
            #expect(changes.count == 1, "one change for the whole edit")
            #expect(changes.first?.patches.map(\.keyPath.description).sorted() == ["a", "c", "gone"])
            #expect(changes.first?.transactionID != nil)
            try t.flush()
            #expect(try String(contentsOf: sandbox.fileURL, encoding: .utf8) == edit, "the edit is not rewritten")
        }

        @Test(arguments: modes) func anInPlaceWriteIsApplied(watching: Tunables.Watching) throws {
            let sandbox = try Sandbox(defaults: ["a": 1])
            let t = try sandbox.open(watching: watching)
            try writeInPlace(#"{"a": 7}"#, to: sandbox.fileURL)
            #expect(eventually { t.get("a") == 7 })
            try writeInPlace(#"{"a": 8}"#, to: sandbox.fileURL)
            #expect(eventually { t.get("a") == 8 })
        }

        @Test(arguments: modes) func aFileThatDoesNotParseKeepsTheLastGoodValues(watching: Tunables.Watching) throws {
            let sandbox = try Sandbox(defaults: ["a": 1, "b": 2])
            let t = try sandbox.open(watching: watching)
            try writeByRename(#"{"a": 3,, "b": 2}"#, to: sandbox.fileURL)
            #expect(eventually { !sandbox.errorLines.isEmpty })
            let line = try #require(sandbox.errorLines.first)
            #expect(line.message.description.contains("does not parse"))
            #expect(line.metadata["file"]?.description == sandbox.fileURL.path)
            #expect(line.metadata["offset"]?.description == "8")
            #expect(line.metadata["reason"] != nil)
            #expect(t.getAll() == ["a": 1, "b": 2])

            // Fixing the file is picked up.
            try writeByRename(#"{"a": 3, "b": 2}"#, to: sandbox.fileURL)
            #expect(eventually { t.get("a") == 3 })
        }

        @Test func anEditThatBreaksTheSchemaIsRefusedAndLogged() throws {
            let sandbox = try Sandbox(defaults: ["a": 1], schema: ["a": ["type": "integer", "max": 10]])
            let t = try sandbox.open(watching: .automatic)
            try writeByRename(#"{"a": 50}"#, to: sandbox.fileURL)
            #expect(eventually { !sandbox.errorLines.isEmpty })
            #expect(
                sandbox.errorLines.first?.metadata["error"]?.description.contains("a: 50 is above the maximum 10")
                    == true)
            #expect(t.get("a") == 1)
            try writeByRename(#"{}"#, to: sandbox.fileURL)  // the schema requires "a"
            #expect(eventually { sandbox.errorLines.count == 2 })
            #expect(t.get("a") == 1)
        }

        @Test(arguments: modes) func ourOwnSavesAreNotTakenForEdits(watching: Tunables.Watching) throws {
            let sandbox = try Sandbox(defaults: ["a": 0])
            let t = try sandbox.open(watching: watching)
            let log = ChangeLog(sandbox.registry)
            // Writes spread over the watcher's debounce, so that our own saves come back while newer values wait
            // to be saved: taking them for edits would put older values back.
            for i in 1...60 {
                try t.set("a", .integer(Int64(i)))
                Thread.sleep(forTimeInterval: Double(i % 7) * 0.004)
            }
            try t.flush()
            // Give the watcher time to see our saves; none of them may come back as a change.
            Thread.sleep(forTimeInterval: 0.3)
            #expect(log.all.count == 60)
            #expect(t.get("a") == 60)
            #expect(try sandbox.fileValue() == ["a": 60])
        }

        @Test func aRemovedFileIsWrittenAgainOnTheNextSave() throws {
            let sandbox = try Sandbox(defaults: ["a": 1])
            let t = try sandbox.open(watching: .automatic)
            try FileManager.default.removeItem(at: sandbox.fileURL)
            #expect(eventually { sandbox.logs.entries.contains { $0.level == .warning } })
            #expect(t.get("a") == 1, "the values stay")
            #expect(!FileManager.default.fileExists(atPath: sandbox.fileURL.path), "not written back at once")
            try t.set("a", 2)
            try t.flush()
            #expect(try sandbox.fileValue() == ["a": 2])
        }

        @Test func stoppingEndsWatchingAndReleasesTheDescriptor() throws {
            let sandbox = try Sandbox(defaults: ["a": 1])
            let before = openInotifyDescriptors()
            for round in 0..<5 {
                let t = try sandbox.open(watching: .automatic)
                #if os(Linux)
                #expect(openInotifyDescriptors() == before + 1)
                #endif
                if round % 2 == 0 {
                    t.stop()
                    try writeByRename(#"{"a": 99}"#, to: sandbox.fileURL)
                    Thread.sleep(forTimeInterval: 0.1)
                    #expect(t.get("a") != 99, "a stopped instance hears no edits")
                    try writeByRename(#"{"a": 1}"#, to: sandbox.fileURL)
                }
                // Odd rounds: released without stop(), which deinit does.
            }
            #expect(openInotifyDescriptors() == before)
            #expect(sandbox.registry.stores.isEmpty)
        }
    }
}
