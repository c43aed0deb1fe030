import Foundation
import KeyscopeCodec
import KeyscopeCore
import KeyscopeGenerators
import PropertyBased
import Testing

/// `LogLineDecoder` against the reference decoder (`JanssonCodec.decodeLogEntry`): its fast path reads a line only
/// when the reference reads it to the same entry, and its answer (entry or error) is always the reference's.
@Suite("log line decoder: fast path vs jansson")
struct LogLineDecoderTests {
    /// What the reference decoder makes of `line`.
    private static func reference(_ line: [UInt8]) -> Result<LogEntry, JanssonCodecError> {
        Result { () throws(JanssonCodecError) in try JanssonCodec.decodeLogEntry(line) }
    }

    private static func decoded(_ decoder: LogLineDecoder, _ line: [UInt8]) -> Result<LogEntry, JanssonCodecError> {
        line.withUnsafeBufferPointer { buffer in
            Result { () throws(JanssonCodecError) in try decoder.decode(buffer) }
        }
    }

    private static func fast(_ decoder: LogLineDecoder, _ line: [UInt8]) -> LogEntry? {
        line.withUnsafeBufferPointer { decoder.fastEntry($0) }
    }

    /// The fast path's verdict on `line`, checked against the reference.
    private static func check(
        _ decoder: LogLineDecoder, _ line: [UInt8], sourceLocation: SourceLocation = #_sourceLocation
    )
        -> LogEntry?
    {
        let reference = reference(line)
        let fast = fast(decoder, line)
        let text = ExactText.of(String(decoding: line, as: UTF8.self))
        if let fast {
            #expect(
                (try? reference.get()) == fast, "the fast path read \(text) as \(fast), the reference as \(reference)",
                sourceLocation: sourceLocation)
        }
        #expect(decoded(decoder, line) == reference, "\(text)", sourceLocation: sourceLocation)
        return fast
    }

    static let lines: [String] = [
        #"{"patches":[{"new":100,"old":90,"op":"set","path":"cart.total"}],"seq":1,"store":"app/memory","time":"2026-11-21T10:00:00.125000Z","txn":null}"#,
        #"{"patches":[{"new":{"a":1.5,"b":[true,null]},"op":"insert","path":"items[0]"},{"new":-0.0,"old":1e2,"op":"set","path":"x"}],"seq":2,"store":"app/file:/var/lib/s.json","time":"2026-11-21T10:00:00.126000Z","txn":"3f2a9c4e-8b1d-4e6f-9a0b-1c2d3e4f5a6b"}"#,
        ##"{"txn":"3F2A9C4E-8B1D-4E6F-9A0B-1C2D3E4F5A6B","time":"2026-11-21t10:00:01.000000z","store":"scenario:checkout/memory","seq":3,"patches":[{"old":{"$color":"#FF8800"},"op":"remove","path":"c"}]}"##,
        #" { "seq" : 4 , "time" : "2026-11-21T10:00:01.000001Z" , "store" : "app/userPrefs" , "patches" : [ ] } "#,
        #"{"patches":[{"new":{"k":"é"},"old":{},"op":"merge","path":""}],"seq":5,"store":"app/memory","time":"2026-11-21T10:00:02.000000Z","liveSeq":99,"subscriptions":[{"id":1,"label":"Cart"}]}"#,
        #"{"patches":[{"new":"ü","op":"set","path":"prefs.thème"}],"seq":6,"store":"app/userPrefs:com.shop","time":"2026-11-21T10:00:02.000000Z","txn":null}"#,
    ]

    @Test("the lines recorders write are read by the fast path, to the reference's entries", arguments: lines)
    func commonLines(_ line: String) {
        #expect(Self.check(LogLineDecoder(), Array(line.utf8)) != nil, "the fast path gave up on \(line)")
    }

    static let referenceOnly: [String] = [
        // Store events, escapes in keys or in the members the fast path reads, unknown patch members.
        #"{"event":"removed","seq":1,"store":"app/memory","time":"2026-11-21T10:00:00.125000Z"}"#,
        #"{"patches":[],"s\u0065q":1,"store":"app/memory","time":"2026-11-21T10:00:00.125000Z"}"#,
        #"{"patches":[{"new":1,"op":"set","path":"a\"b"}],"seq":1,"store":"app/memory","time":"2026-11-21T10:00:00.125000Z"}"#,
        #"{"patches":[{"new":1,"op":"set","path":"a","why":"x"}],"seq":1,"store":"app/memory","time":"2026-11-21T10:00:00.125000Z"}"#,
        #"{"patches":[{"new":1,"$op":"set","path":"a"}],"seq":1,"store":"app/memory","time":"2026-11-21T10:00:00.125000Z"}"#,
        // Errors: each is the reference's own.
        #"{"patches":[],"seq":1,"seq":1,"store":"app/memory","time":"2026-11-21T10:00:00.125000Z"}"#,
        #"{"patches":[],"seq":1,"store":"app/memory","time":"2026-11-21T10:00:00.125000Z","x":1,"x":2}"#,
        #"{"patches":[{"new":1,"new":2,"op":"set","path":"a"}],"seq":1,"store":"app/memory","time":"2026-11-21T10:00:00.125000Z"}"#,
        #"{"patches":[],"seq":0,"store":"app/memory","time":"2026-11-21T10:00:00.125000Z"}"#,
        #"{"patches":[],"seq":1.0,"store":"app/memory","time":"2026-11-21T10:00:00.125000Z"}"#,
        #"{"patches":[],"seq":01,"store":"app/memory","time":"2026-11-21T10:00:00.125000Z"}"#,
        #"{"patches":[],"seq":1,"store":"app/memory","time":"2026-11-21T10:00:60.125000Z"}"#,
        #"{"patches":[],"seq":1,"store":"app/memory","time":"2026-02-30T10:00:00.125000Z"}"#,
        #"{"patches":[],"seq":1,"store":"memory","time":"2026-11-21T10:00:00.125000Z"}"#,
        #"{"patches":[],"seq":1,"store":"app/memory","time":"2026-11-21T10:00:00.125000Z","txn":"nope"}"#,
        #"{"patches":[],"seq":1,"store":"app/memory","time":"2026-11-21T10:00:00.125000Z","txn":7}"#,
        #"{"patches":[{"op":"set","path":"a"}],"seq":1,"store":"app/memory","time":"2026-11-21T10:00:00.125000Z"}"#,
        #"{"patches":[{"new":1,"op":"insert","path":"a"}],"seq":1,"store":"app/memory","time":"2026-11-21T10:00:00.125000Z"}"#,
        #"{"patches":[{"new":1,"op":"set","path":"a[01]"}],"seq":1,"store":"app/memory","time":"2026-11-21T10:00:00.125000Z"}"#,
        #"{"patches":[{"new":99999999999999999999,"op":"set","path":"a"}],"seq":1,"store":"app/memory","time":"2026-11-21T10:00:00.125000Z"}"#,
        #"{"patches":[{"new":{"$color":"red"},"op":"set","path":"a"}],"seq":1,"store":"app/memory","time":"2026-11-21T10:00:00.125000Z"}"#,
        #"{"patches":[{"new":{"$a":1,"a":2},"op":"set","path":"a"}],"seq":1,"store":"app/memory","time":"2026-11-21T10:00:00.125000Z"}"#,
        #"{"patches":[],"seq":1,"store":"app/memory","time":"2026-11-21T10:00:00.125000Z"} x"#,
        #"{"patches":[],"seq":1,"store":"app/memory"}"#,
        #"[1,2]"#,
    ]

    @Test("lines of other shapes, and bad lines, go the reference way, errors and all", arguments: referenceOnly)
    func otherLines(_ line: String) {
        #expect(Self.check(LogLineDecoder(), Array(line.utf8)) == nil, "the fast path read \(line)")
    }

    @Test("a raw NUL byte or bytes that are not UTF-8 are the reference's errors")
    func badBytes() {
        let line = Array(Self.lines[0].utf8)
        for (index, byte) in [(100, 0x00), (100, 0xFF), (130, 0xC3), (5, 0x00)] as [(Int, UInt8)] {
            var damaged = line
            damaged[index] = byte
            #expect(Self.check(LogLineDecoder(), damaged) == nil)
        }
        // Inside a store id, a valid two-byte sequence is read; half of one is not.
        let store = Array(#"{"patches":[],"seq":1,"store":"app/userPrefs:"#.utf8)
        let end = Array(#"","time":"2026-11-21T10:00:00.125000Z"}"#.utf8)
        #expect(Self.check(LogLineDecoder(), store + [0xC3, 0xA9] + end) != nil)
        #expect(Self.check(LogLineDecoder(), store + [0xC3] + end) == nil)
    }

    @Test("random change lines: the fast path agrees with the reference, and reads most of them")
    func randomLines() async {
        let decoder = LogLineDecoder()
        let read = Counter()
        await propertyCheck(count: 2000, input: RandomLine.generator) { line in
            if Self.check(decoder, line.bytes) != nil { read.add() }
        }
        // Many random lines have escapes in their paths, bad seqs or bad store ids; enough are plain.
        #expect(read.value > 100, "the fast path read only \(read.value) of 2000 random lines")
    }

    @Test("damaged lines: the fast path never reads one the reference refuses, or reads it differently")
    func damagedLines() async {
        let decoder = LogLineDecoder()
        await propertyCheck(count: 4000, input: RandomLine.damaged) { line in
            _ = Self.check(decoder, line)
        }
    }
}

/// Counts from inside a property's body.
private final class Counter: @unchecked Sendable {
    // @unchecked: only touched under `lock`.
    private let lock = NSLock()
    private var count = 0
    func add() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}

/// Random change lines as a recorder or a person might write them: members in any order, whitespace, extra
/// members, values spelled any valid way, every op.
struct RandomLine: Sendable, CustomTestStringConvertible {
    let bytes: [UInt8]
    var testDescription: String { ExactText.of(String(decoding: bytes, as: UTF8.self)) }

    static let stores = [
        "app/memory", "app/userPrefs", "app/userPrefs:com.shop", "scenario:checkout/memory", "app/file:/var/x.json",
        "app/backend:flags", "app/memory/x", "bad",
    ]

    static var generator: Generator<RandomLine, Shrink.None<RandomLine>> {
        Generator { rng in RandomLine(bytes: Array(text(using: &rng).utf8)) }
    }

    /// A random line with one to three random byte edits.
    static var damaged: Generator<[UInt8], Shrink.None<[UInt8]>> {
        Generator { rng in
            var bytes = Array(text(using: &rng).utf8)
            let interesting = Array(#"{}[],:"\-.0123456789eE+$untfl "#.utf8) + [0x00, 0x1F, 0x80, 0xC3, 0xFF]
            for _ in 0..<Int.random(in: 1...3, using: &rng) {
                let byte =
                    StoreGen.chance(0.5, &rng)
                    ? StoreGen.pick(interesting, &rng) : UInt8.random(in: 0...255, using: &rng)
                switch Int.random(in: 0..<3, using: &rng) {
                case 0 where !bytes.isEmpty: bytes[Int.random(in: 0..<bytes.count, using: &rng)] = byte
                case 1: bytes.insert(byte, at: Int.random(in: 0...bytes.count, using: &rng))
                default: if !bytes.isEmpty { bytes.remove(at: Int.random(in: 0..<bytes.count, using: &rng)) }
                }
            }
            return bytes
        }
    }

    static func text(using rng: inout some RandomNumberGenerator) -> String {
        var members: [String] = []
        members.append(#""seq":\#(StoreGen.pick(["1", "42", "9007199254740993", "0", "-1"], &rng))"#)
        let second = Int.random(in: 0...59, using: &rng)
        members.append(
            #""time":"2026-11-21T10:00:\#(second < 10 ? "0" : "")\#(second).\#(Int.random(in: 100_000...999_999, using: &rng))Z""#
        )
        members.append(#""store":\#(json(.string(StoreGen.pick(stores, &rng))))"#)
        switch Int.random(in: 0..<4, using: &rng) {
        case 0: break
        case 1: members.append(#""txn":null"#)
        case 2: members.append(#""txn":"\#(uuid(using: &rng))""#)
        default: members.append(#""txn":"\#(uuid(using: &rng).lowercased())""#)
        }
        let patches = (0..<Int.random(in: 0...3, using: &rng)).map { _ in patch(using: &rng) }
        members.append(#""patches":[\#(patches.joined(separator: ","))]"#)
        if StoreGen.chance(0.2, &rng) { members.append(#""liveSeq":\#(Int.random(in: 0...1000, using: &rng))"#) }
        if StoreGen.chance(0.1, &rng) {
            members.append(
                #""subscriptions":\#(StoreGen.JSONSpeller.spell(StoreGen.randomValue(depth: 2, width: 2, using: &rng), using: &rng))"#
            )
        }
        members.shuffle(using: &rng)
        let space = StoreGen.chance(0.2, &rng) ? " " : ""
        return "{" + space + members.joined(separator: "," + space) + space + "}"
    }

    private static func patch(using rng: inout some RandomNumberGenerator) -> String {
        let op = StoreGen.pick(["set", "set", "insert", "remove", "merge"], &rng)
        var path = StoreGen.randomKeyPath(using: &rng)
        if op == "insert", StoreGen.chance(0.8, &rng) {
            path = path.appending(index: Int.random(in: 0...3, using: &rng))
        }
        func value() -> StoreValue {
            op == "merge" && StoreGen.chance(0.9, &rng)
                ? .object(["a": StoreGen.randomValue(depth: 1, width: 2, using: &rng), "b": 1])
                : StoreGen.randomValue(depth: 2, width: 3, using: &rng)
        }
        var members = [#""op":"\#(op)""#, #""path":\#(json(.string(path.description)))"#]
        if op != "insert" || StoreGen.chance(0.05, &rng) {
            if op != "set" || StoreGen.chance(0.6, &rng) {
                members.append(#""old":\#(StoreGen.JSONSpeller.spell(value(), using: &rng))"#)
            }
        }
        if op != "remove" || StoreGen.chance(0.05, &rng) {
            members.append(#""new":\#(StoreGen.JSONSpeller.spell(value(), using: &rng))"#)
        }
        members.shuffle(using: &rng)
        return "{" + members.joined(separator: ",") + "}"
    }

    private static func json(_ value: StoreValue) -> String { value.jsonText() }

    private static func uuid(using rng: inout some RandomNumberGenerator) -> String {
        var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &bytes) { raw in
            for index in raw.indices { raw[index] = UInt8.random(in: 0...255, using: &rng) }
        }
        return UUID(uuid: bytes).uuidString
    }
}
