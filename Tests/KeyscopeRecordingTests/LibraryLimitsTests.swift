import Foundation
import KeyscopeCore
import KeyscopeInspector
import KeyscopeProtocol
import KeyscopeRecording
import Testing

/// RecordingLibrary.Limits: how many recordings run at once, their default and largest bounds, the folder's total;
/// and a read-only hub refusing a client's recordings.
@Suite struct LibraryLimitsTests {
    private func library(_ folder: RecorderTempFolder, _ limits: RecordingLibrary.Limits) throws
        -> (RecordingLibrary, InspectorHub)
    {
        let hub = recordedHub()
        try addRecordedStore(hub, "a", root: ["n": 0])
        let library = RecordingLibrary(
            folder: folder.file("own"), defaults: .init(pollInterval: .milliseconds(5)), limits: limits)
        return (library, hub)
    }

    private func code(_ body: () throws -> StoreValue) -> HubError.Code? {
        do {
            _ = try body()
            return nil
        } catch {
            return (error as? HubError)?.code
        }
    }

    @Test func theRecordingPastMaxActiveIsTooManyAndAStoppedOneMakesRoom() throws {
        let folder = try RecorderTempFolder()
        defer { folder.cleanUp() }
        let (library, hub) = try library(folder, .init(maxActive: 2))
        _ = try library.start(RecordingRequest(name: "a.kslog"), hub: hub)
        _ = try library.start(RecordingRequest(name: "b.kslog"), hub: hub)
        #expect(code { try library.start(RecordingRequest(name: "c.kslog"), hub: hub) } == .tooMany)
        #expect(!FileManager.default.fileExists(atPath: folder.file("own/c.kslog").path))
        _ = try library.stop(name: "a.kslog")
        let started = try library.start(RecordingRequest(name: "c.kslog"), hub: hub)
        #expect(started["state"] == "recording")
        library.stopAll()
    }

    @Test func aRecordingGetsTheDefaultBoundsAndMayNotAskForMore() throws {
        let folder = try RecorderTempFolder()
        defer { folder.cleanUp() }
        let limits = RecordingLibrary.Limits(maxDuration: .seconds(60), maxBytes: 50_000)
        let (library, hub) = try library(folder, limits)
        let started = try library.start(RecordingRequest(name: "d.kslog"), hub: hub)
        #expect(started["maxBytes"] == 50_000)
        #expect(started["durationSeconds"] == .number(60))
        let asked = try library.start(
            RecordingRequest(duration: .milliseconds(1500), maxBytes: 1_000, name: "e.kslog"), hub: hub)
        #expect(asked["maxBytes"] == 1_000)
        #expect(asked["durationSeconds"] == .number(1.5))
        #expect(code { try library.start(RecordingRequest(duration: .seconds(61)), hub: hub) } == .badRequest)
        #expect(code { try library.start(RecordingRequest(maxBytes: 50_001), hub: hub) } == .badRequest)
        library.stopAll()
    }

    @Test func aFullFolderRefusesNewRecordingsAndDeletesNothing() throws {
        let folder = try RecorderTempFolder()
        defer { folder.cleanUp() }
        let (library, hub) = try library(folder, .init(maxBytes: 64 << 20, maxFolderBytes: 10_000))
        #expect(code { try library.start(RecordingRequest(name: "big.kslog"), hub: hub) } == .noSpace)
        _ = try library.start(RecordingRequest(maxBytes: 6_000, name: "one.kslog"), hub: hub)
        // The running one's bound is reserved: 4,000 bytes are left, whatever it has written so far.
        #expect(code { try library.start(RecordingRequest(maxBytes: 6_000, name: "two.kslog"), hub: hub) } == .noSpace)
        _ = try library.stop(name: "one.kslog")
        let written = try #require(
            try FileManager.default.attributesOfItem(atPath: folder.file("own/one.kslog").path)[.size] as? Int)
        _ = try library.start(RecordingRequest(maxBytes: 10_000 - written, name: "three.kslog"), hub: hub)
        #expect(code { try library.start(RecordingRequest(maxBytes: 1, name: "four.kslog"), hub: hub) } == .noSpace)
        #expect(FileManager.default.fileExists(atPath: folder.file("own/one.kslog").path))
        library.stopAll()
    }

    @Test func aReadOnlyHubRefusesAClientsStartAndStop() throws {
        let folder = try RecorderTempFolder()
        defer { folder.cleanUp() }
        let hub = InspectorHub(registry: StoreRegistry(), options: HubOptions(readOnly: true, deliveriesRefresh: nil))
        hub.start()
        defer { hub.stop() }
        hub.recordingsFeature.endpoint = RecordingLibrary(folder: folder.file("own"))
        #expect(code { try hub.recordingsFeature.start(RecordingRequest(name: "x.kslog")) } == .readOnly)
        #expect(code { try hub.recordingsFeature.stop(name: "x.kslog") } == .readOnly)
        #expect(try hub.recordingsFeature.listing()["active"] == [])
        #expect(!FileManager.default.fileExists(atPath: folder.file("own").path))
    }
}
