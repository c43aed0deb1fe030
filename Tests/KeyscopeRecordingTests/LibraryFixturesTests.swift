import Foundation
import KeyscopeCodec
import KeyscopeCore
import KeyscopeInspector
import KeyscopeRecording
import Testing

/// The package's example recordings (fixtures/recordings): every one must be valid per docs/recording.md, and they are
/// what `keyscope serve` offers as the `fixtures` source.
@Suite struct LibraryFixturesTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("fixtures/recordings", isDirectory: true)

    static var names: [String] {
        let all = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return all.filter { $0.hasSuffix(".kslog") }.sorted()
    }

    @Test func theThreeSessionsAreThere() {
        #expect(
            Set(Self.names).isSuperset(of: [
                "checkout-session.kslog", "tunables-session.kslog", "preferences-session.kslog",
            ]))
    }

    @Test(arguments: names)
    func everyFixtureReplaysFromItsHeader(name: String) throws {
        let url = Self.folder.appendingPathComponent(name)
        let replayed = try WrittenRecording(contentsOf: url)
        #expect(replayed.tornBytes == 0)
        #expect(!replayed.entries.isEmpty)
        #expect(try Data(contentsOf: url).count < 300_000)
        // The recorder's extras: the live seq of the header, then of each line, rising.
        let headerSeq = try #require(replayed.header.extras["liveSeq"]?.integerValue)
        let live = replayed.liveSeqs.compactMap { $0 }
        #expect(live.count == replayed.entries.count)
        #expect(zip([headerSeq] + live, live).allSatisfy { $0 < $1 })
        #expect(replayed.header.source?.host == "fixtures")
    }

    @Test func theStoriesHaveWhatTheReadmeSays() throws {
        func kinds(_ name: String) throws -> [String] {
            try WrittenRecording(contentsOf: Self.folder.appendingPathComponent(name)).entries.map { entry in
                switch entry.event {
                case .change(let change): change.transactionID == nil ? "change" : "transaction"
                case .registered: "registered"
                case .reset: "reset"
                case .removed: "removed"
                }
            }
        }
        let checkout = try kinds("checkout-session.kslog")
        #expect(Set(checkout).isSuperset(of: ["change", "transaction", "registered", "removed"]))
        #expect(checkout.count >= 200)
        #expect(try kinds("preferences-session.kslog").contains("reset"))
        let preferences = try String(
            contentsOf: Self.folder.appendingPathComponent("preferences-session.kslog"), encoding: .utf8)
        #expect(preferences.contains("•••• ("))
        #expect(!preferences.contains("ks_live"), "no secret in clear")
    }

    @Test func aLibraryOffersThem() throws {
        let library = RecordingLibrary(folder: Self.folder.appendingPathComponent("none"), offered: [Self.folder])
        let ids = library.listing()["recordings"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
        #expect(Set(ids) == Set(Self.names.map { "fixtures/" + $0 }))
        #expect(
            try library.file(source: "fixtures", name: "checkout-session.kslog").lastPathComponent
                == "checkout-session.kslog")
    }
}
