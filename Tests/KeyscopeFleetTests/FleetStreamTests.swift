import Foundation
import KeyscopeCore
import KeyscopeFleet
import KeyscopeTesting
import Testing

/// The WebSocket streams of the fleet dashboard, read as the server reads them.
@Suite(.serialized) struct FleetStreamTests {
    /// The next message of `stream` within the timeout, parsed.
    private func nextMessage(_ stream: some AnyObject & FleetStreamReading, where wanted: (StoreValue) -> Bool)
        -> StoreValue?
    {
        var found: StoreValue?
        eventually("a message") {
            while let bytes = stream.next(maxEntries: 1000, maxBytes: 1 << 20) {
                let message = try? StoreValue(jsonBytes: bytes)
                if let message, wanted(message) {
                    found = message
                    return true
                }
            }
            return false
        }
        return found
    }

    @Test func oneInstancesStreamGivesItsSnapshotChangesAndAnswers() throws {
        let redis = try RedisTestServer()
        defer { redis.stop() }
        let instance = try FleetInstanceUnderTest(redis: redis.url, fleet: "shop", id: "shop-1")
        defer { instance.stop() }
        let view = try makeView(redis.url, fleet: "shop")
        defer { view.stop() }
        eventually("shop-1 mirrored") { view.isMirrored("shop-1") }
        let stream = InstanceStream(view: view, instance: "shop-1", readOnly: false)
        #expect(stream.helloMembers["instance"] == "shop-1")

        let snapshot = try #require(nextMessage(stream) { $0.objectValue?["type"] == "snapshot" })
        let seq = snapshot.objectValue?["seq"]?.integerValue ?? -1
        instance.store.set("cart.total", 120)
        let changes = try #require(nextMessage(stream) { $0.objectValue?["type"] == "changes" })
        let first = changes.objectValue?["entries"]?.arrayValue?.first?.objectValue
        #expect(first?["seq"]?.integerValue == seq + 1)
        #expect(first?["instance"] == nil)

        let write = Array(
            #"{"id":"w","type":"write","store":"app/memory","op":"set","path":"cart.total","value":130}"#.utf8)
        let answered = Replies()
        stream.handle(write) { answered.add($0) }
        eventually("the write's reply") { answered.count == 1 }
        let reply = try StoreValue(jsonBytes: answered.all[0][0])
        #expect(reply.objectValue?["ok"] == true)
        #expect(instance.store.get("cart.total") == 130)

        let resync = Replies()
        stream.handle(Array(#"{"id":2,"type":"resync"}"#.utf8)) { resync.add($0) }
        eventually("the resync") { resync.count == 1 }
        #expect(try StoreValue(jsonBytes: resync.all[0][0]).objectValue?["type"] == "snapshot")
        #expect(try StoreValue(jsonBytes: resync.all[0][1]).objectValue?["id"] == 2)
    }

    @Test func theAllInstancesStreamListsMergesAndBroadcasts() throws {
        let redis = try RedisTestServer()
        defer { redis.stop() }
        let one = try FleetInstanceUnderTest(redis: redis.url, fleet: "shop", id: "shop-1")
        defer { one.stop() }
        let two = try FleetInstanceUnderTest(redis: redis.url, fleet: "shop", id: "shop-2", readOnly: true)
        defer { two.stop() }
        let view = try makeView(redis.url, fleet: "shop")
        defer { view.stop() }
        eventually("both mirrored") { view.isMirrored("shop-1") && view.isMirrored("shop-2") }
        let stream = AllInstancesStream(view: view, readOnly: false)
        let list = try #require(nextMessage(stream) { $0.objectValue?["type"] == "fleet" })
        let ids = list.objectValue?["instances"]?.arrayValue?.compactMap { $0.objectValue?["id"] }
        #expect(ids == ["shop-1", "shop-2"])
        _ = stream.next(maxEntries: 1000, maxBytes: 1 << 20)  // starts following both

        one.store.set("from", "one")
        two.store.set("from", "two")
        var seen: Set<String> = []
        eventually("entries of both instances, each naming its instance") {
            while let bytes = stream.next(maxEntries: 1000, maxBytes: 1 << 20) {
                let message = try? StoreValue(jsonBytes: bytes)
                guard message?.objectValue?["type"] == "changes" else { continue }
                for entry in message?.objectValue?["entries"]?.arrayValue ?? [] {
                    if case .string(let id)? = entry.objectValue?["instance"] { seen.insert(id) }
                }
            }
            return seen == ["shop-1", "shop-2"]
        }

        let untargeted = Replies()
        stream.handle(Array(#"{"id":1,"type":"tune","key":"a","value":1}"#.utf8)) { untargeted.add($0) }
        eventually("the refusal") { untargeted.count == 1 }
        #expect(
            try StoreValue(jsonBytes: untargeted.all[0][0]).objectValue?["error"]?.objectValue?["code"] == "bad_request"
        )

        let broadcast = Replies()
        let write = Array(
            #"{"id":9,"type":"write","instance":"*","store":"app/memory","op":"set","path":"all","value":true}"#.utf8)
        stream.handle(write) { broadcast.add($0) }
        eventually("the broadcast's reply") { broadcast.count == 1 }
        let reply = try StoreValue(jsonBytes: broadcast.all[0][0])
        let answers = reply.objectValue?["result"]?.objectValue?["instances"]?.objectValue
        #expect(answers?["shop-1"]?.objectValue?["ok"] == true)
        #expect(answers?["shop-2"]?.objectValue?["error"]?.objectValue?["code"] == "read_only")
        #expect(one.store.get("all") == true)
        #expect(two.store.get("all") == nil)
    }

    @Test func aReadOnlyDashboardRefusesWritesItself() throws {
        let redis = try RedisTestServer()
        defer { redis.stop() }
        let instance = try FleetInstanceUnderTest(redis: redis.url, fleet: "shop", id: "shop-1")
        defer { instance.stop() }
        let view = try makeView(redis.url, fleet: "shop")
        defer { view.stop() }
        eventually("shop-1 mirrored") { view.isMirrored("shop-1") }
        let stream = InstanceStream(view: view, instance: "shop-1", readOnly: true)
        #expect(stream.helloMembers["readOnly"] == true)
        let answered = Replies()
        stream.handle(Array(#"{"id":1,"type":"write","store":"app/memory","op":"set","path":"x","value":1}"#.utf8)) {
            answered.add($0)
        }
        eventually("the refusal") { answered.count == 1 }
        #expect(
            try StoreValue(jsonBytes: answered.all[0][0]).objectValue?["error"]?.objectValue?["code"] == "read_only")
        #expect(instance.store.get("x") == nil)
    }
}

/// What `FeatureStream.next` offers, for the helper above.
protocol FleetStreamReading { func next(maxEntries: Int, maxBytes: Int) -> [UInt8]? }
extension InstanceStream: FleetStreamReading {}
extension AllInstancesStream: FleetStreamReading {}

/// Answers a stream gave, from any thread.
final class Replies: @unchecked Sendable {
    private let lock = NSLock()
    private var answers: [[[UInt8]]] = []
    func add(_ messages: [[UInt8]]) { lock.withLock { answers.append(messages) } }
    var count: Int { lock.withLock { answers.count } }
    var all: [[[UInt8]]] { lock.withLock { answers } }
}
