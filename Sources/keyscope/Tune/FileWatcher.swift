import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Waits for saves of one file. On Linux it watches the file's directory with inotify (a write that closes the
/// file, or a file renamed onto its name: editors that save through a temporary file and a rename are seen too);
/// elsewhere it polls the file's size, modification time and inode every 50 ms.
///
/// ```swift
/// let watcher = try FileWatcher(url: URL(fileURLWithPath: "live-constants.json"))
/// while watcher.next() { reload() }        // returns false once stop() was called
/// // from another thread (a signal handler's): watcher.stop()
/// ```
/// A burst of events (an editor's several writes) is reported once, after 20 ms without another one.
final class FileWatcher: Sendable {
    private let url: URL
    /// ``stop()`` writes a byte here; ``next()`` polls the read end.
    private let stopPipe: (read: Int32, write: Int32)
    /// The inotify descriptor (Linux), or -1 when polling.
    private let inotify: Int32
    /// The last state seen, when polling.
    private let polled = Mutex<FileState?>(nil)

    /// How often the fallback polls.
    static let pollInterval: Int32 = 50
    /// How long a burst of events must be quiet before it is reported.
    static let quietInterval: Int32 = 20

    init(url: URL) throws(CommandFailure) {
        self.url = url
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw CommandFailure("cannot make a pipe: \(String(cString: strerror(errno)))") }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        stopPipe = (ends[0], ends[1])
        #if os(Linux)
        let fd = inotify_init1(Int32(IN_CLOEXEC) | Int32(IN_NONBLOCK))
        let directory = url.deletingLastPathComponent().path
        if fd >= 0, inotify_add_watch(fd, directory, UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO)) < 0 {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw CommandFailure("cannot watch the directory \(directory): \(reason)")
        }
        inotify = fd
        #else
        inotify = -1
        #endif
        polled.withLock { $0 = FileState(url) }
    }

    deinit {
        close(stopPipe.read)
        close(stopPipe.write)
        if inotify >= 0 { close(inotify) }
    }

    /// Blocks until the file may have changed (true), or until ``stop()`` (false).
    func next() -> Bool {
        while true {
            if inotify >= 0 {
                switch wait(timeout: -1) {
                case .stopped: return false
                case .event: break
                case .timeout: continue
                }
                guard drainEvents() else { continue }
                // Let a burst settle: report once it has been quiet for a moment.
                while true {
                    switch wait(timeout: Self.quietInterval) {
                    case .stopped: return false
                    case .event: _ = drainEvents()
                    case .timeout: return true
                    }
                }
            } else {
                if case .stopped = wait(timeout: Self.pollInterval) { return false }
                let now = FileState(url)
                let changed = polled.withLock { last in
                    defer { last = now }
                    return last != now
                }
                if changed { return true }
            }
        }
    }

    /// Ends the current or next ``next()``. Safe from any thread.
    func stop() {
        var byte: UInt8 = 1
        _ = write(stopPipe.write, &byte, 1)
    }

    private enum Wakeup { case stopped, event, timeout }

    private func wait(timeout milliseconds: Int32) -> Wakeup {
        var fds = [pollfd(fd: stopPipe.read, events: Int16(POLLIN), revents: 0)]
        if inotify >= 0 { fds.append(pollfd(fd: inotify, events: Int16(POLLIN), revents: 0)) }
        let ready = poll(&fds, nfds_t(fds.count), milliseconds)
        if ready <= 0 { return .timeout }
        if fds[0].revents != 0 { return .stopped }
        return .event
    }

    /// Reads the pending inotify events; true when one is about the watched file (or events were lost).
    private func drainEvents() -> Bool {
        var matched = false
        let name = Array(url.lastPathComponent.utf8)
        var buffer = [UInt8](repeating: 0, count: 16 << 10)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(inotify, $0.baseAddress, $0.count) }
            guard count > 0 else { return matched }
            buffer.withUnsafeBytes { raw in
                var offset = 0
                // struct inotify_event: int wd; uint32_t mask, cookie, len; char name[len] (NUL-padded).
                while offset + 16 <= count {
                    let watch = raw.loadUnaligned(fromByteOffset: offset, as: Int32.self)
                    let length = Int(raw.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                    let field = raw[(offset + 16)..<min(count, offset + 16 + length)]
                    if watch == -1 || field.prefix(while: { $0 != 0 }).elementsEqual(name) { matched = true }
                    offset += 16 + length
                }
            }
        }
    }
}

/// What the polling fallback compares: size, modification time and inode (`nil` fields when the file is missing).
private struct FileState: Equatable, Sendable {
    var size: Int?
    var modified: Date?
    var inode: Int?

    init(_ url: URL) {
        let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
        size = (attributes?[.size] as? NSNumber)?.intValue
        modified = attributes?[.modificationDate] as? Date
        inode = (attributes?[.systemFileNumber] as? NSNumber)?.intValue
    }
}
