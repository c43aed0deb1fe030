public import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whole-file replacement that a reader (or a crash) never sees half done: write a temporary file in the same
/// directory, fsync it, rename it over the target, fsync the directory.
public enum AtomicFile {
    /// Replaces the file at `url` with `data`. On any error the old file is untouched and no temporary is left.
    public static func write(_ data: Data, to url: URL, permissions: mode_t = 0o644) throws(StoreError) {
        let directory = url.deletingLastPathComponent().path
        let temporary =
            directory + "/." + url.lastPathComponent + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, permissions)
        guard fd >= 0 else { throw failure("create a temporary file in \(directory)") }
        var ok = false
        defer {
            if !ok { unlink(temporary) }
        }
        if let code = writeAll(fd, data) {
            close(fd)
            throw failure("write \(temporary)", code: code)
        }
        guard fsync(fd) == 0 else {
            let error = failure("fsync \(temporary)")
            close(fd)
            throw error
        }
        close(fd)
        guard rename(temporary, url.path) == 0 else { throw failure("rename into \(url.path)") }
        ok = true
        let directoryFD = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directoryFD >= 0 {
            _ = fsync(directoryFD)
            close(directoryFD)
        }
    }

    /// Writes all of `bytes` to `fd`: again after a signal (`EINTR`), and the rest after a short write (a full
    /// disk says so on the next one). Returns the `errno` of the write that failed, or `nil` when all were written.
    ///
    /// ```swift
    /// if let code = AtomicFile.writeAll(fd, Array("line\n".utf8)) { print(String(cString: strerror(code))) }
    /// ```
    public static func writeAll(_ fd: Int32, _ bytes: some ContiguousBytes) -> Int32? {
        bytes.withUnsafeBytes { raw -> Int32? in
            var offset = 0
            while offset < raw.count {
                let written = systemWrite(fd, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return nil
        }
    }

    /// Removes temporaries that writers killed mid-write left beside `url` (those whose process is gone).
    public static func removeStaleTemporaries(of url: URL) {
        let directory = url.deletingLastPathComponent().path
        let prefix = "." + url.lastPathComponent + ".tmp-"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for name in names where name.hasPrefix(prefix) {
            let rest = name.dropFirst(prefix.count)
            guard let dash = rest.firstIndex(of: "-"), let pid = pid_t(rest[..<dash]), pid != getpid() else { continue }
            if kill(pid, 0) == -1, errno == ESRCH { unlink(directory + "/" + name) }
        }
    }

    private static func failure(_ action: String, code: Int32 = errno) -> StoreError {
        StoreError(code: .persistence, message: "could not \(action): \(String(cString: strerror(code)))")
    }
}

/// `write(2)`, named apart from the many Swift `write` methods in scope.
private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.write(fd, buffer, count)
    #else
    Darwin.write(fd, buffer, count)
    #endif
}
