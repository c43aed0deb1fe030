public import Foundation
public import KeyscopeCore

/// Decodes the event lines of a recording (LOG-FORMAT.md), giving exactly what ``JanssonCodec/decodeLogEntry(_:maxDepth:)``
/// gives, several times faster on the lines recorders write.
///
/// ```swift
/// let decoder = LogLineDecoder()                       // one per reader: it caches paths and store ids
/// let entry = try line.withUnsafeBufferPointer { try decoder.decode($0) }
/// ```
///
/// **Two paths.** The reference decoder parses the line into a jansson tree, converts it into values, then reads the
/// line's members from those; for a typical 230-byte change line most of its time went to that tree, to key paths
/// and store ids parsed again on every line, and to the text of patch members that are thrown away. The fast path
/// reads the line once, left to right: the members it knows (`seq`, `time`, `store`, `txn`, `patches`, and a
/// patch's `op`, `path`, `old`, `new`) by their bytes; `old`, `new` and unknown members with the core's JSON reader
/// (`StoreValue.readJSON`), which accepts exactly the texts and values the jansson codec accepts (the codec's
/// property tests hold them equal). Key paths and store ids are looked up by their bytes in small caches.
///
/// **Bailing out.** The fast path reads only the common shape: no escape in a member's key or in `time`, `store`,
/// `txn`, `op` or `path`; no `event` (store events are rare); no member of a patch beyond the four; values nested no
/// deeper than ``fastPathMaxDepth``. On anything else, and on anything wrong at all, it gives up on the line and the
/// reference decoder reads it from the start, so every error, and its message, is the reference decoder's own. It
/// never reports an error itself, and what it accepts the reference accepts, with an equal entry: the recording
/// fuzzer and `LogLineDecoderTests` check that on every line they make.
///
/// Not thread-safe (its caches): one decoder per reader.
public final class LogLineDecoder {
    /// The deepest value (`old`, `new`, an unknown member) the fast path reads; deeper ones go the reference way,
    /// whose limits (`JSONLimits.defaultMaxDepth` inside the line) are far above it.
    public static let fastPathMaxDepth = 64

    // Unchecked exclusivity: the decoder is used from one thread at a time and never hands these out, so no two
    // accesses can overlap; the checks cost a few percent of a line.
    @exclusivity(unchecked) private var paths = ByteKeyCache<StoreKeyPath>(capacity: 2048)
    @exclusivity(unchecked) private var stores = ByteKeyCache<StoreID>(capacity: 64)
    /// The last time parsed whole, up to its seconds (`YYYY-MM-DDTHH:MM:SS`), and that second in microseconds:
    /// events come many to a second, and the next times of that second only need their fraction read.
    @exclusivity(unchecked) private var recentSecond: (prefix: [UInt8], micros: Int64) = ([], 0)

    public init() {}

    /// The event on `line` (a final `\n` may be included).
    /// - Throws: what ``JanssonCodec/decodeLogEntry(_:maxDepth:)`` throws for the line.
    public func decode(_ line: UnsafeBufferPointer<UInt8>) throws(JanssonCodecError) -> LogEntry {
        if let entry = fastEntry(line) { return entry }
        return try JanssonCodec.decodeLogEntry(line)
    }

    /// The event when the fast path reads the line itself; `nil` when the line goes the reference way.
    public func fastEntry(_ line: UnsafeBufferPointer<UInt8>) -> LogEntry? {
        var scanner = LineScanner(line)
        return try? entry(&scanner)
    }

    /// The members a change line must have once each, as bits.
    private enum Member {
        static let seq: UInt8 = 1
        static let time: UInt8 = 2
        static let store: UInt8 = 4
        static let txn: UInt8 = 8
        static let patches: UInt8 = 16
        static let required = seq | time | store | patches
    }

    private func entry(_ scanner: inout LineScanner) throws(LineScanner.Bail) -> LogEntry {
        scanner.skipWhitespace()
        try scanner.expect(UInt8(ascii: "{"))
        var seen: UInt8 = 0
        var seq: Int64 = 0
        var time: LogTime?
        var store: StoreID?
        var transactionID: UUID?
        var patches: [StorePatch] = []
        // Members the line has beyond the contract's: jansson refuses a key written twice, so the fast path must.
        var unknownKeys: [UnsafeBufferPointer<UInt8>] = []
        repeat {
            let key = try scanner.asciiString()
            scanner.skipWhitespace()
            try scanner.expect(UInt8(ascii: ":"))
            let member = Self.member(key)
            guard seen & member == 0 else { throw LineScanner.Bail() }
            seen |= member
            switch member {
            case Member.seq:
                seq = try scanner.positiveInteger()
            case Member.time:
                time = self.time(try scanner.asciiString())
            case Member.store:
                store = try storeID(try scanner.plainString())
            case Member.txn:
                if scanner.current == UInt8(ascii: "n") {
                    try scanner.null()
                } else {
                    guard let uuid = JanssonCodec.uuid(bytes: try scanner.asciiString()) else {
                        throw LineScanner.Bail()
                    }
                    transactionID = uuid
                }
            case Member.patches:
                patches = try self.patches(&scanner)
            default:
                // `event` makes a store event, which the reference decoder reads; anything else is ignored, once
                // it is known to be valid JSON.
                guard !LineScanner.equals(key, "event"), !unknownKeys.contains(where: { $0.elementsEqual(key) }) else {
                    throw LineScanner.Bail()
                }
                unknownKeys.append(key)
                _ = try scanner.value(maxDepth: Self.fastPathMaxDepth)
            }
        } while try scanner.nextMember(close: UInt8(ascii: "}"))
        guard scanner.isAtEnd, seen & Member.required == Member.required, let time, let store else {
            throw LineScanner.Bail()
        }
        let change = StoreChange(storeID: store, patches: patches, transactionID: transactionID)
        return LogEntry(seq: seq, time: time, event: .change(change))
    }

    /// The member bit of a line's key; 0 for a key the contract does not give change lines.
    private static func member(_ key: UnsafeBufferPointer<UInt8>) -> UInt8 {
        switch key.count {
        case 3 where LineScanner.equals(key, "seq"): Member.seq
        case 3 where LineScanner.equals(key, "txn"): Member.txn
        case 4 where LineScanner.equals(key, "time"): Member.time
        case 5 where LineScanner.equals(key, "store"): Member.store
        case 7 where LineScanner.equals(key, "patches"): Member.patches
        default: 0
        }
    }

    /// The time `text` spells, as ``LogTime/parse(_:)`` reads it; `nil` when it does not.
    private func time(_ text: UnsafeBufferPointer<UInt8>) -> LogTime? {
        guard text.count == 27 else { return nil }
        var fraction: Int64 = 0
        for index in 20..<26 {
            let digit = text[index] &- 0x30
            guard digit <= 9 else { return nil }
            fraction = fraction * 10 + Int64(digit)
        }
        if text[19] == UInt8(ascii: "."), text[26] | 0x20 == UInt8(ascii: "z"),
            ByteKeyCache<StoreID>.equal(recentSecond.prefix, UnsafeBufferPointer(rebasing: text[0..<19]))
        {
            return LogTime(microsecondsSince1970: recentSecond.micros + fraction)
        }
        guard let time = try? LogTime.parse(text) else { return nil }
        recentSecond = (Array(text[0..<19]), time.microsecondsSince1970 - fraction)
        return time
    }

    private func storeID(_ string: (text: UnsafeBufferPointer<UInt8>, ascii: Bool)) throws(LineScanner.Bail) -> StoreID
    {
        let id = stores.value(for: string.text) { () -> StoreID? in
            guard let text = Self.text(string) else { return nil }
            return StoreID(text)
        }
        guard let id else { throw LineScanner.Bail() }
        return id
    }

    private func patches(_ scanner: inout LineScanner) throws(LineScanner.Bail) -> [StorePatch] {
        try scanner.expect(UInt8(ascii: "["))
        var patches: [StorePatch] = []
        // Room for a transaction's few patches at once.
        patches.reserveCapacity(4)
        if scanner.current == UInt8(ascii: "]") {
            _ = try scanner.nextMember(close: UInt8(ascii: "]"))
            return patches
        }
        repeat {
            patches.append(try patch(&scanner))
        } while try scanner.nextMember(close: UInt8(ascii: "]"))
        return patches
    }

    /// One patch object with `op` and `path` and, as its op needs, `old` and `new` (nothing else).
    private func patch(_ scanner: inout LineScanner) throws(LineScanner.Bail) -> StorePatch {
        try scanner.expect(UInt8(ascii: "{"))
        var op: StorePatch.Operation?
        var path: StoreKeyPath?
        var old: StoreValue?
        var new: StoreValue?
        var seen: UInt8 = 0
        repeat {
            let key = try scanner.asciiString()
            scanner.skipWhitespace()
            try scanner.expect(UInt8(ascii: ":"))
            let bit: UInt8
            switch key.count {
            case 2 where LineScanner.equals(key, "op"):
                bit = 1
                op = Self.operation(try scanner.asciiString())
            case 4 where LineScanner.equals(key, "path"):
                bit = 2
                path = try keyPath(try scanner.plainString())
            case 3 where LineScanner.equals(key, "old"):
                bit = 4
                old = try scanner.value(maxDepth: Self.fastPathMaxDepth)
            case 3 where LineScanner.equals(key, "new"):
                bit = 8
                new = try scanner.value(maxDepth: Self.fastPathMaxDepth)
            default:
                throw LineScanner.Bail()
            }
            guard seen & bit == 0 else { throw LineScanner.Bail() }
            seen |= bit
        } while try scanner.nextMember(close: UInt8(ascii: "}"))
        guard let op, let path, let patch = try? StorePatch(checking: op, keyPath: path, oldValue: old, newValue: new)
        else { throw LineScanner.Bail() }
        return patch
    }

    private static func operation(_ text: UnsafeBufferPointer<UInt8>) -> StorePatch.Operation? {
        if LineScanner.equals(text, "set") { return .set }
        if LineScanner.equals(text, "merge") { return .merge }
        if LineScanner.equals(text, "insert") { return .insert }
        if LineScanner.equals(text, "remove") { return .remove }
        return nil
    }

    private func keyPath(_ string: (text: UnsafeBufferPointer<UInt8>, ascii: Bool)) throws(LineScanner.Bail)
        -> StoreKeyPath
    {
        let path = paths.value(for: string.text) { () -> StoreKeyPath? in
            guard let text = Self.text(string) else { return nil }
            return try? StoreKeyPath(parsing: text)
        }
        guard let path else { throw LineScanner.Bail() }
        return path
    }

    /// The text of a plain string's bytes; `nil` when they are not UTF-8 (jansson refuses such a line).
    private static func text(_ string: (text: UnsafeBufferPointer<UInt8>, ascii: Bool)) -> String? {
        string.ascii ? String(decoding: string.text, as: UTF8.self) : String(validating: string.text, as: UTF8.self)
    }
}
