#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The key paths each thread parsed last, by their text, so that parsing a path the thread parsed before costs a
/// short hash and a comparison.
///
/// `store.set("cart.total", 100)` parses its literal on every call, and a program writes the same few paths over and
/// over: parsing each time (an array of segments allocated, a string made per name) cost about as much as the write
/// itself. The cache is per thread, so it takes no lock and threads writing their own stores never wait for each
/// other. It is bounded (256 slots, texts of at most 64 bytes: some kilobytes a thread) and two-way: a text's hash
/// picks a pair of slots, a new text goes into the first and moves the first's text to the second, whose text is
/// dropped. A hit returns the segments parsed before, which are exactly what parsing would give (parsing is a
/// function of the text); only successful parses are kept.
enum KeyPathCache {
    private struct Slot {
        /// The text's hash, compared first: two different texts that share a pair of slots differ there (nearly
        /// always), and comparing strings costs more.
        var hash: UInt64
        var text: String
        var segments: [StoreKeyPath.Segment]
    }

    private static let slotCount = 256
    private static let longestText = 64

    /// The segments of `text`: remembered from this thread's last parse of it, or `parse(text)`, then remembered.
    static func segments(
        of text: String, parse: (String) throws(KeyPathParseError) -> [StoreKeyPath.Segment]
    ) throws(KeyPathParseError) -> [StoreKeyPath.Segment] {
        guard let hash = hash(of: text) else { return try parse(text) }
        let first = threadSlots() + (Int(truncatingIfNeeded: hash ^ (hash >> 32)) & (slotCount - 2))
        let second = first + 1
        if first.pointee.hash == hash, first.pointee.text == text { return first.pointee.segments }
        if second.pointee.hash == hash, second.pointee.text == text { return second.pointee.segments }
        let segments = try parse(text)
        second.pointee = first.move()
        first.initialize(to: Slot(hash: hash, text: text, segments: segments))
        return segments
    }

    /// FNV-1a of the UTF-8 bytes; `nil` for a text too long to keep (or not contiguous). Its low bits (folded with
    /// the high ones) pick the pair of slots.
    private static func hash(of text: String) -> UInt64? {
        text.utf8.withContiguousStorageIfAvailable { bytes -> UInt64? in
            guard bytes.count <= longestText else { return nil }
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            return hash
        } ?? nil
    }

    /// This thread's slots, made on its first parse and freed when it ends (the key's destructor). Every slot starts
    /// as `""`, the root, whose segments are `[]`: a true entry, so no slot is ever empty.
    private static func threadSlots() -> UnsafeMutablePointer<Slot> {
        if let raw = pthread_getspecific(key) { return raw.assumingMemoryBound(to: Slot.self) }
        let slots = UnsafeMutablePointer<Slot>.allocate(capacity: slotCount)
        slots.initialize(repeating: Slot(hash: hash(of: "")!, text: "", segments: []), count: slotCount)
        pthread_setspecific(key, slots)
        return slots
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        #if canImport(Darwin)
        let status = pthread_key_create(&key) { raw in freeSlots(raw) }
        #else
        let status = pthread_key_create(&key) { raw in raw.map(freeSlots) }
        #endif
        precondition(status == 0, "pthread_key_create failed with \(status): too many thread-specific keys")
        return key
    }()

    private static func freeSlots(_ raw: UnsafeMutableRawPointer) {
        let slots = raw.assumingMemoryBound(to: Slot.self)
        slots.deinitialize(count: slotCount)
        slots.deallocate()
    }
}
