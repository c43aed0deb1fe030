import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension UUID {
    /// A random (version 4) UUID for a transaction, from the system's secure generator.
    ///
    /// ```swift
    /// let id = UUID.transactionID()   // like UUID(), e.g. 1813AAF0-1FBB-4A3B-9BB0-4A0B277E26C4
    /// ```
    /// `UUID()` in swift-corelibs-foundation opens, reads and closes /dev/urandom on every call, and even one
    /// system call per id (`SystemRandomNumberGenerator`) was a quarter of a demo change's cost at 50,000 changes
    /// per second here (system calls are slow in sandboxes). So the random bytes are read 4 KiB at a time from the
    /// same kernel source and handed out 16 at a time.
    static func transactionID() -> UUID {
        var bytes = transactionIDPool.withLock { $0.take16() }
        // RFC 9562: version 4 in the high nibble of byte 6, variant 0b10 in the top bits of byte 8.
        bytes.6 = (bytes.6 & 0x0F) | 0x40
        bytes.8 = (bytes.8 & 0x3F) | 0x80
        return UUID(uuid: bytes)
    }
}

private let transactionIDPool = Mutex(RandomPool())

/// Bytes from the operating system's secure generator, read in blocks.
private struct RandomPool: ~Copyable {
    private var buffer = [UInt8](repeating: 0, count: 4096)
    private var offset = 4096

    mutating func take16() -> uuid_t {
        if offset + 16 > buffer.count {
            Self.fill(&buffer)
            offset = 0
        }
        defer { offset += 16 }
        return buffer.withUnsafeBytes { bytes in
            bytes.loadUnaligned(fromByteOffset: offset, as: uuid_t.self)
        }
    }

    private static func fill(_ buffer: inout [UInt8]) {
        buffer.withUnsafeMutableBytes { bytes in
            #if canImport(Darwin)
            arc4random_buf(bytes.baseAddress, bytes.count)
            #else
            // Open, read, close per block: three system calls per 256 ids, and no descriptor kept open.
            var filled = 0
            let fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC)
            if fd >= 0 {
                while filled < bytes.count {
                    let got = read(fd, bytes.baseAddress! + filled, bytes.count - filled)
                    if got > 0 {
                        filled += got
                    } else if got == 0 || errno != EINTR {
                        break
                    }
                }
                close(fd)
            }
            // Without /dev/urandom (a chroot, say), the standard library's generator fills the rest.
            var generator = SystemRandomNumberGenerator()
            for index in filled..<bytes.count { bytes[index] = generator.next() }
            #endif
        }
    }
}
