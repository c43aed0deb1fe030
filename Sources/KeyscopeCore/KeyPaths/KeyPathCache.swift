#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The key paths each thread parsed last, so that parsing a path the thread parsed before costs a short lookup.
///
/// `store.set("cart.total", 100)` parses its literal on every call, and a program writes the same few paths over and
/// over: parsing each time (an array of segments allocated, a string made per name) cost about as much as the write
/// itself. The cache is per thread, so it takes no lock and threads writing their own stores never wait for each
/// other. A hit returns the segments parsed before, which are exactly what parsing would give (parsing is a function
/// of the text); only successful parses are kept. Two tables, both bounded (about 18 KiB a thread):
///
/// - **Literals** (``segments(ofLiteral:)``), by the address of their text. A string literal's bytes live in the
///   program's image at a fixed address for as long as the program runs (Swift cannot unload an image that holds
///   Swift code), so an address and a length name one text: a hit costs one multiplication and two comparisons,
///   without reading the text. 64 slots, one per address hash; a new literal replaces the one in its slot.
/// - **Texts** (``segments(of:parse:)``), by a hash of their bytes (texts of at most 64 bytes), for paths built or
///   read at run time. 512 slots in sets of four: a text's hash picks a set, a new text goes first and moves the
///   others down, the last one is dropped. Four ways, so that a program cycling through a hundred paths (one per
///   item of a list) keeps them all: with two, the sets that three of them shared missed on every call.
enum KeyPathCache {
    private struct TextSlot {
        /// The text's hash, compared first: two different texts in one set differ there (nearly always), and
        /// comparing strings costs more.
        var hash: UInt64
        var text: String
        var segments: [StoreKeyPath.Segment]
    }

    private struct LiteralSlot {
        /// The address of the literal's first byte; 0 in a slot that holds none yet.
        var address: UInt
        var count: Int
        var segments: [StoreKeyPath.Segment]
    }

    private static let textSlotCount = 512
    private static let ways = 4
    private static let longestText = 64
    private static let literalSlotCount = 64

    /// The segments of `literal`: remembered from this thread's last parse of the same literal, or parsed.
    static func segments(ofLiteral literal: StaticString) throws(KeyPathParseError) -> [StoreKeyPath.Segment] {
        // A literal of one Unicode scalar has no bytes in the image to point at; it is short, take the text table.
        guard literal.hasPointerRepresentation else {
            return try segments(of: literal.description, parse: KeyPathParser.parseUncached)
        }
        let address = UInt(bitPattern: literal.utf8Start)
        let count = literal.utf8CodeUnitCount
        // Fibonacci hashing: the top bits of the product depend on every bit of the address.
        let index = Int(truncatingIfNeeded: (UInt64(address) &* 0x9E37_79B9_7F4A_7C15) >> 58)
        let slot =
            threadSlots(literalKey, count: literalSlotCount, empty: LiteralSlot(address: 0, count: 0, segments: []))
            + index
        if slot.pointee.address == address, slot.pointee.count == count { return slot.pointee.segments }
        let segments = try KeyPathParser.parseUncached(literal.description)
        slot.pointee = LiteralSlot(address: address, count: count, segments: segments)
        return segments
    }

    /// The segments of `text`: remembered from this thread's last parse of it, or `parse(text)`, then remembered.
    static func segments(
        of text: String, parse: (String) throws(KeyPathParseError) -> [StoreKeyPath.Segment]
    ) throws(KeyPathParseError) -> [StoreKeyPath.Segment] {
        // A path of one name (a top-level key such as `theme` or `k12`) is not kept: checking its bytes and making
        // its one-element array costs no more than a hit, and a program writing many such keys (one per user, per
        // item) would otherwise miss on every call and evict its longer paths. The check shares the hash's one look
        // at the bytes.
        let hash: UInt64
        switch lookUp(text) {
        case .oneName: return [.key(text)]
        case .unkept: return try parse(text)
        case .hash(let value): hash = value
        }
        let set =
            threadSlots(textKey, count: textSlotCount, empty: emptyTextSlot)
            + (Int(truncatingIfNeeded: hash) & (textSlotCount - ways))
        for way in 0..<ways where set[way].hash == hash && set[way].text == text { return set[way].segments }
        let segments = try parse(text)
        // The oldest entry goes; the others move down one, the new one comes first.
        set[ways - 1] = TextSlot(hash: hash, text: text, segments: segments)
        let newest = (set + ways - 1).move()
        (set + 1).moveInitialize(from: set, count: ways - 1)
        set.initialize(to: newest)
        return segments
    }

    private enum Lookup {
        case oneName, unkept
        case hash(UInt64)
    }

    /// How `text` is looked up: as one name, not at all (too long, or not contiguous), or by its hash.
    private static func lookUp(_ text: String) -> Lookup {
        text.utf8.withContiguousStorageIfAvailable { bytes -> Lookup in
            if KeyPathParser.isOneName(bytes) { return .oneName }
            guard bytes.count <= longestText else { return .unkept }
            return .hash(hash(of: UnsafeRawBufferPointer(bytes)))
        } ?? .unkept
    }

    /// A hash of the UTF-8 bytes read eight at a time (each word mixed in by a multiplication, the tail as the last
    /// eight bytes, overlapping; a shorter text in one word), with the length mixed in first: different texts of
    /// up to eight bytes never share a hash. Its low bits pick the set.
    private static func hash(of raw: UnsafeRawBufferPointer) -> UInt64 {
        var hash = UInt64(raw.count) &* 0x9E37_79B9_7F4A_7C15
        func mix(_ word: UInt64) {
            hash = (hash ^ word) &* 0xFF51_AFD7_ED55_8CCD
            hash ^= hash >> 32
        }
        if raw.count >= 8 {
            var offset = 0
            while offset + 8 < raw.count {
                mix(raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                offset += 8
            }
            mix(raw.loadUnaligned(fromByteOffset: raw.count - 8, as: UInt64.self))
        } else if raw.count >= 4 {
            // Two overlapping four-byte loads hold every byte of a text of four to seven.
            let low = raw.loadUnaligned(fromByteOffset: 0, as: UInt32.self)
            let high = raw.loadUnaligned(fromByteOffset: raw.count - 4, as: UInt32.self)
            mix(UInt64(low) | UInt64(high) << 32)
        } else if raw.count > 0 {
            // The first, middle and last bytes are all the bytes of a text of one to three.
            mix(UInt64(raw[0]) | UInt64(raw[raw.count / 2]) << 8 | UInt64(raw[raw.count - 1]) << 16)
        }
        hash = (hash ^ (hash >> 29)) &* 0xC4CE_B9FE_1A85_EC53
        return hash ^ (hash >> 32)
    }

    /// Every text slot starts as `""`, the root, whose segments are `[]`: a true entry, so no slot is ever empty.
    private static let emptyTextSlot = TextSlot(
        hash: hash(of: UnsafeRawBufferPointer(start: nil, count: 0)), text: "", segments: [])

    /// This thread's table under `key`, made on its first use and freed when the thread ends (the key's destructor).
    private static func threadSlots<Slot>(
        _ key: pthread_key_t, count: Int, empty: @autoclosure () -> Slot
    ) -> UnsafeMutablePointer<Slot> {
        if let raw = pthread_getspecific(key) { return raw.assumingMemoryBound(to: Slot.self) }
        let slots = UnsafeMutablePointer<Slot>.allocate(capacity: count)
        slots.initialize(repeating: empty(), count: count)
        pthread_setspecific(key, slots)
        return slots
    }

    private static let textKey: pthread_key_t = {
        var key = pthread_key_t()
        #if canImport(Darwin)
        let status = pthread_key_create(&key) { raw in freeTextSlots(raw) }
        #else
        let status = pthread_key_create(&key) { raw in raw.map(freeTextSlots) }
        #endif
        precondition(status == 0, "pthread_key_create failed with \(status): too many thread-specific keys")
        return key
    }()

    private static let literalKey: pthread_key_t = {
        var key = pthread_key_t()
        #if canImport(Darwin)
        let status = pthread_key_create(&key) { raw in freeLiteralSlots(raw) }
        #else
        let status = pthread_key_create(&key) { raw in raw.map(freeLiteralSlots) }
        #endif
        precondition(status == 0, "pthread_key_create failed with \(status): too many thread-specific keys")
        return key
    }()

    private static func freeTextSlots(_ raw: UnsafeMutableRawPointer) {
        let slots = raw.assumingMemoryBound(to: TextSlot.self)
        slots.deinitialize(count: textSlotCount)
        slots.deallocate()
    }

    private static func freeLiteralSlots(_ raw: UnsafeMutableRawPointer) {
        let slots = raw.assumingMemoryBound(to: LiteralSlot.self)
        slots.deinitialize(count: literalSlotCount)
        slots.deallocate()
    }
}
