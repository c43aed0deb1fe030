import Foundation
import KeyscopeCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The POSIX calls behind ``RecordingWriter``: one place that turns their error codes into ``RecordingError``s.
enum RecordingFile {
    /// Opens `url` for writing: created exclusively (`O_EXCL`: an existing file or symlink is an error), or, with
    /// `overwrite`, created or truncated without following a symlink.
    static func open(_ url: URL, overwrite: Bool, permissions: UInt16) throws(RecordingError) -> Int32 {
        let mode = overwrite ? O_TRUNC | O_NOFOLLOW : O_EXCL
        let descriptor = systemOpen(url.path, O_WRONLY | O_CREAT | O_CLOEXEC | mode, mode_t(permissions))
        guard descriptor >= 0 else {
            let code = errno
            if code == EEXIST {
                throw RecordingError(
                    .io, line: nil,
                    "\(url.path) already exists; choose another name or remove it (recordings are never overwritten "
                        + "unless asked)")
            }
            throw .system("create \(url.path)", errno: code)
        }
        return descriptor
    }

    /// Writes all of `bytes` at the file's end: one `write(2)` unless the system writes less (a full disk, a
    /// signal), in which case the rest follows at once (``KeyscopeCore/AtomicFile/writeAll(_:_:)``).
    static func write(_ descriptor: Int32, _ bytes: [UInt8], to url: URL) throws(RecordingError) {
        if let failure = AtomicFile.writeAll(descriptor, bytes) {
            throw .system("write to \(url.path)", errno: failure)
        }
    }

    static func close(_ descriptor: Int32) {
        #if canImport(Glibc)
        _ = Glibc.close(descriptor)
        #elseif canImport(Musl)
        _ = Musl.close(descriptor)
        #else
        _ = Darwin.close(descriptor)
        #endif
    }
}

/// `open(2)`, named apart from Swift's many `open`s.
private func systemOpen(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 {
    #if canImport(Glibc)
    Glibc.open(path, flags, mode)
    #elseif canImport(Musl)
    Musl.open(path, flags, mode)
    #else
    Darwin.open(path, flags, mode)
    #endif
}
