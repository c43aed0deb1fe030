import Foundation
import KeyscopeCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What tells one version of a file from another: a replace by rename changes the inode, an edit in place the size
/// or the times.
struct FileStamp: Sendable, Hashable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var modified: timespec
    var changed: timespec

    init(_ info: stat) {
        device = UInt64(truncatingIfNeeded: info.st_dev)
        inode = UInt64(truncatingIfNeeded: info.st_ino)
        size = Int64(info.st_size)
        #if canImport(Darwin)
        modified = info.st_mtimespec
        changed = info.st_ctimespec
        #else
        modified = info.st_mtim
        changed = info.st_ctim
        #endif
    }

    static func == (lhs: FileStamp, rhs: FileStamp) -> Bool {
        lhs.device == rhs.device && lhs.inode == rhs.inode && lhs.size == rhs.size
            && lhs.modified.tv_sec == rhs.modified.tv_sec && lhs.modified.tv_nsec == rhs.modified.tv_nsec
            && lhs.changed.tv_sec == rhs.changed.tv_sec && lhs.changed.tv_nsec == rhs.changed.tv_nsec
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(inode)
        hasher.combine(size)
    }
}

/// The POSIX calls of ``FileSecretStore``: reads with the stamp of what was read, atomic replaces, a directory lock.
/// Every failure is an `io` error that names the path and says what failed.
enum SecretFiles {
    /// The stamp of `path`, or `nil` when there is no such file.
    static func stamp(_ path: String) throws(SecretStoreError) -> FileStamp? {
        var info = stat()
        guard stat(path, &info) == 0 else {
            if errno == ENOENT { return nil }
            throw failure("could not look at the secrets file \(path)")
        }
        return FileStamp(info)
    }

    /// The bytes of `path` and the stamp of the very file they were read from, or `nil` when there is no such file.
    static func contents(_ path: String) throws(SecretStoreError) -> (data: Data, stamp: FileStamp)? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            throw failure("could not open the secrets file \(path)")
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw failure("could not look at the secrets file \(path)") }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure("could not read the secrets file \(path)")
            }
            data.append(contentsOf: buffer[0..<count])
        }
        return (data, FileStamp(info))
    }

    /// Replaces `path` with `data` so that a crash leaves the old file or the new one, never half of either, through
    /// the core's ``KeyscopeCore/AtomicFile`` (a temporary file of mode 0600 in the same directory, fsynced, renamed
    /// over `path`, the directory fsynced).
    static func replace(_ path: String, with data: Data) throws(SecretStoreError) {
        do throws(StoreError) {
            try AtomicFile.write(data, to: URL(fileURLWithPath: path), permissions: 0o600)
        } catch {
            throw SecretStoreError(code: .io, message: "the secrets file \(path) was not replaced: \(error.message)")
        }
    }

    /// Creates `path` (and missing parents) with mode 0700 when it does not exist; an existing directory is left as
    /// it is.
    static func makeDirectory(_ path: String) throws(SecretStoreError) {
        var info = stat()
        if stat(path, &info) == 0 {
            guard (info.st_mode & S_IFMT) == S_IFDIR else {
                throw SecretStoreError(
                    code: .io,
                    message: "\(path) is not a directory: give FileSecretStore a directory for its secrets file"
                )
            }
            return
        }
        let parent = URL(fileURLWithPath: path).deletingLastPathComponent().path
        if parent != path, parent != "/" { try makeDirectory(parent) }
        guard mkdir(path, 0o700) == 0 || errno == EEXIST else {
            throw failure("could not create the secrets directory \(path)")
        }
    }

    /// Runs `body` holding an exclusive `flock` on `directory`, so that the read-modify-write of two processes
    /// sharing the secrets file never loses one of the writes.
    static func withLock<Result>(
        on directory: String,
        _ body: () throws(SecretStoreError) -> Result
    ) throws(SecretStoreError) -> Result {
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw failure("could not open the secrets directory \(directory)") }
        defer { close(fd) }  // Closing the descriptor releases the lock.
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else { throw failure("could not lock the secrets directory \(directory)") }
        }
        return try body()
    }

    /// An `io` error for the call that just failed, with `strerror(errno)` and what to check.
    static func failure(_ what: String) -> SecretStoreError {
        let code = errno
        let reason = String(cString: strerror(code))
        var hint = ""
        switch code {
        case EACCES, EPERM: hint = ": check the owner and permissions of the directory"
        case ENOSPC, EDQUOT: hint = ": free some disk space"
        case EROFS: hint = ": the file system is read-only; give a writable directory"
        default: break
        }
        return SecretStoreError(code: .io, message: "\(what) (\(reason))\(hint)")
    }
}
