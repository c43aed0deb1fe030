/// A bounded map from short byte strings (a key path, a store id, as a log line spells them) to what they parse to,
/// looked up with the bytes where they lie: no `String` is made and nothing is allocated for a hit.
///
/// A recording names the same few paths and stores on line after line, and parsing `cart.items[3].title` into a
/// `StoreKeyPath` (or `app/file:/var/lib/x.json` into a `StoreID`, which builds a URL) costs far more than finding
/// it again. Open addressing with linear probing over a power-of-two table, FNV-1a hashes; when the table is half
/// full it is emptied and fills again with what is in use, so memory stays bounded whatever the recording holds.
///
/// Not thread-safe: one per decoder.
struct ByteKeyCache<Value> {
    /// Parallel tables: a slot is free when its hash is 0 (a stored hash has its low bit set); hashes are compared
    /// before keys.
    private var hashes: [UInt64]
    private var keys: [[UInt8]]
    private var values: [Value?]
    private var count = 0
    private let mask: Int
    /// Keys longer than this are never cached (they are rare, and hashing them would cost more than it saves).
    let maxKeyLength: Int

    /// A cache of up to `capacity / 2` entries; `capacity` is rounded up to a power of two.
    init(capacity: Int = 1024, maxKeyLength: Int = 256) {
        var size = 16
        while size < capacity { size <<= 1 }
        hashes = Array(repeating: 0, count: size)
        keys = Array(repeating: [], count: size)
        values = Array(repeating: nil, count: size)
        mask = size - 1
        self.maxKeyLength = maxKeyLength
    }

    /// The value cached for `key`, or what `make` gives for it (cached unless `nil`).
    mutating func value(for key: UnsafeBufferPointer<UInt8>, make: () -> Value?) -> Value? {
        guard key.count <= maxKeyLength else { return make() }
        let hash = Self.hash(key) | 1
        var index = Int(truncatingIfNeeded: hash >> 1) & mask
        while hashes[index] != 0 {
            if hashes[index] == hash, Self.equal(keys[index], key) { return values[index] }
            index = (index + 1) & mask
        }
        guard let made = make() else { return nil }
        if count >= values.count / 2 {
            for position in values.indices {
                hashes[position] = 0
                keys[position] = []
                values[position] = nil
            }
            count = 0
            index = Int(truncatingIfNeeded: hash >> 1) & mask
        }
        hashes[index] = hash
        keys[index] = Array(key)
        values[index] = made
        count += 1
        return made
    }

    static func equal(_ stored: [UInt8], _ key: UnsafeBufferPointer<UInt8>) -> Bool {
        guard stored.count == key.count else { return false }
        return stored.withUnsafeBufferPointer { stored in
            for index in 0..<key.count where stored[index] != key[index] { return false }
            return true
        }
    }

    /// Eight bytes at a time, each word mixed in by a multiply (FNV-style); the tail byte by byte.
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(bytes.count)
        let raw = UnsafeRawBufferPointer(bytes)
        var index = 0
        while index + 8 <= raw.count {
            hash = (hash ^ raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) &* 0x0000_0100_0000_01b3
            hash ^= hash >> 29
            index += 8
        }
        while index < raw.count {
            hash = (hash ^ UInt64(raw[index])) &* 0x0000_0100_0000_01b3
            index += 1
        }
        return hash
    }
}
