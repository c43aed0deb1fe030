import Foundation
import KeyscopeCodec
import KeyscopeCore
import KeyscopeInspector
import KeyscopeProtocol
import KeyscopeRecording
import Testing

@Suite struct LibraryTests {
    @Test(arguments: ["a.kslog", "checkout-session.kslog", "bug_1234.v2.kslog", "A-Z.0-9_.kslog", ".hidden.kslog"])
    func plainNamesAreAccepted(name: String) {
        #expect(RecordingName.isValid(name))
    }

    @Test(arguments: [
        "", ".kslog", "a.kslo", "a.kslog.txt", "../a.kslog", "a/../b.kslog", "a/b.kslog", "..kslog", "a..kslog",
        "%2e%2e.kslog", "a b.kslog", "a\\b.kslog", "a\u{0}.kslog", "é.kslog", "~.kslog", "/etc/x.kslog",
        String(repeating: "a", count: 300) + ".kslog",
    ])
    func anythingElseIsRefused(name: String) {
        #expect(!RecordingName.isValid(name))
    }

    @Test func timestampedNamesAreValid() {
        let time = LogTime(rfc3339: "2026-11-21T10:05:09.123456Z")!
        #expect(RecordingName.timestamped(time) == "recording-20261121-100509.kslog")
        #expect(RecordingName.timestamped(time, suffix: 2) == "recording-20261121-100509-2.kslog")
        #expect(RecordingName.isValid(RecordingName.timestamped(time, suffix: 2)))
    }

    /// A library on a started hub, with a recordings folder and an offered folder holding `fixture.kslog`.
    private func library(_ folder: RecorderTempFolder) throws -> (RecordingLibrary, InspectorHub, URL) {
        let hub = recordedHub()
        try addRecordedStore(hub, "a", root: ["n": 0])
        let offered = folder.file("offered")
        try FileManager.default.createDirectory(at: offered, withIntermediateDirectories: true)
        try Data("{}\n".utf8).write(to: offered.appendingPathComponent("fixture.kslog"))
        let library = RecordingLibrary(
            folder: folder.file("own"), offered: [offered],
            defaults: .init(pollInterval: .milliseconds(5)))
        return (library, hub, offered)
    }

    @Test func filesAreFoundByStrictNameOnlyAndNeverThroughASymlinkOut() throws {
        let folder = try RecorderTempFolder()
        defer { folder.cleanUp() }
        let (library, _, offered) = try library(folder)
        #expect(try library.file(source: "fixtures", name: "fixture.kslog").lastPathComponent == "fixture.kslog")
        // Outside the folder: a secret beside it, reached by a symlink or by a name with a path in it.
        try Data("secret\n".utf8).write(to: folder.file("outside.kslog"))
        try FileManager.default.createSymbolicLink(
            at: offered.appendingPathComponent("escape.kslog"), withDestinationURL: folder.file("outside.kslog"))
        try FileManager.default.createSymbolicLink(
            at: offered.appendingPathComponent("alias.kslog"),
            withDestinationURL: offered.appendingPathComponent("fixture.kslog"))
        try FileManager.default.createDirectory(
            at: offered.appendingPathComponent("dir.kslog"), withIntermediateDirectories: true)
        for (source, name) in [
            ("fixtures", "escape.kslog"), ("fixtures", "../outside.kslog"), ("fixtures", "missing.kslog"),
            ("fixtures", "dir.kslog"), ("elsewhere", "fixture.kslog"), ("recordings", "fixture.kslog"),
            ("fixtures", "fixture.kslog/"), ("fixtures", "%2e%2e%2foutside.kslog"),
        ] {
            #expect {
                try library.file(source: source, name: name)
            } throws: { error in
                (error as! HubError).code == .notFound
            }
        }
        #expect(try library.file(source: "fixtures", name: "alias.kslog").lastPathComponent == "fixture.kslog")
        let listed = library.listing()["recordings"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
        #expect(Set(listed) == ["fixtures/fixture.kslog", "fixtures/alias.kslog"])
    }

    @Test func startRecordsIntoTheFolderAndStopEndsIt() throws {
        let folder = try RecorderTempFolder()
        defer { folder.cleanUp() }
        let (library, hub, _) = try library(folder)
        let started = try library.start(RecordingRequest(name: "bug-1.kslog"), hub: hub)
        #expect(started["id"] == "recordings/bug-1.kslog")
        #expect(started["state"] == "recording")
        let store = try #require(hub.registry.store(scenarioStoreID("a")) as? KeyValueStore)
        store.set("n", 1)
        store.set("n", 2)
        let stopped = try library.stop(name: "bug-1.kslog")
        #expect(stopped["state"] == "ended")
        #expect(stopped["endReason"] == "stopped")
        #expect(stopped["events"] == 2)
        let url = try library.file(source: "recordings", name: "bug-1.kslog")
        #expect(try WrittenRecording(contentsOf: url).stores[scenarioStoreID("a")] == ["n": 2])
        // Stopping again answers the final status; the listing shows the file and the ended recording.
        #expect(try library.stop(name: "bug-1.kslog") == stopped)
        let listing = library.listing()
        #expect(listing["active"] == [stopped])
        let ids = listing["recordings"]?.arrayValue?.compactMap { $0["id"]?.stringValue }
        #expect(ids?.first == "recordings/bug-1.kslog", "newest first")
        #expect(ids?.contains("fixtures/fixture.kslog") == true)
        let entry = try #require(listing["recordings"]?.arrayValue?.first)
        #expect(entry["source"] == "recordings" && entry["name"] == "bug-1.kslog")
        #expect(entry["bytes"]?.integerValue == Int64(try Data(contentsOf: url).count))
    }

    @Test func namesAreCheckedAndNeverReused() throws {
        let folder = try RecorderTempFolder()
        defer { folder.cleanUp() }
        let (library, hub, _) = try library(folder)
        for bad in ["../x.kslog", "x.json", "a/b.kslog"] {
            #expect {
                try library.start(RecordingRequest(name: bad), hub: hub)
            } throws: { error in
                (error as! HubError).code == .badRequest
            }
        }
        _ = try library.start(RecordingRequest(name: "same.kslog"), hub: hub)
        #expect {
            try library.start(RecordingRequest(name: "same.kslog"), hub: hub)
        } throws: { error in
            (error as! HubError).code == .badRequest
        }
        let unnamed = try library.start(RecordingRequest(), hub: hub)
        let name = try #require(unnamed["name"]?.stringValue)
        #expect(name.hasPrefix("recording-") && RecordingName.isValid(name))
        let second = try library.start(RecordingRequest(), hub: hub)
        #expect(second["name"] != unnamed["name"])
        library.stopAll()
        #expect(library.statuses().allSatisfy { $0.state == .ended })
    }

    /// The library keeps no hub (the hub hands itself to `start`), so attaching one makes no cycle.
    @Test func aStoppedHubWithALibraryAttachedIsFreed() throws {
        let folder = try RecorderTempFolder()
        defer { folder.cleanUp() }
        let library = RecordingLibrary(folder: folder.file("own"))
        weak var released: InspectorHub?
        do {
            let hub = recordedHub()
            try addRecordedStore(hub, "a", root: ["n": 0])
            hub.recordingsFeature.endpoint = library
            #expect(try hub.recordingsFeature.listing()["recordings"] == [])
            hub.stop()
            released = hub
        }
        #expect(released == nil)
    }

    @Test func badMutePatternsAndUnknownRecordingsAreRefused() throws {
        let folder = try RecorderTempFolder()
        defer { folder.cleanUp() }
        let (library, hub, _) = try library(folder)
        #expect {
            try library.start(RecordingRequest(mutedPaths: ["items[0]"]), hub: hub)
        } throws: { error in
            (error as! HubError).code == .badPath
        }
        #expect {
            try library.stop(name: "never.kslog")
        } throws: { error in
            (error as! HubError).code == .notFound
        }
    }

    @Test func aRequestsBoundsAndMutingReachTheRecorder() async throws {
        let folder = try RecorderTempFolder()
        defer { folder.cleanUp() }
        let (library, hub, _) = try library(folder)
        let request = try RecordingRequest(
            jsonObject: ["durationSeconds": 0.2, "mute": ["n"], "name": "short.kslog"])
        _ = try library.start(request, hub: hub)
        let store = try #require(hub.registry.store(scenarioStoreID("a")) as? KeyValueStore)
        store.set("n", 1)
        let deadline = ContinuousClock.now + .seconds(10)
        while library.statuses().first?.state != .ended, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        let status = try #require(library.statuses().first)
        #expect(status.endReason == .duration)
        let replayed = try WrittenRecording(contentsOf: status.url)
        #expect(replayed.stores[scenarioStoreID("a")] == ["n": MuteRules.placeholder])
        #expect(replayed.header.extras["muted"] == ["n"])
    }
}
