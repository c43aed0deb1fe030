import Dispatch
public import Foundation
public import Logging
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Calls `onChange` when another program changes one file: with inotify on Linux, watching the file's DIRECTORY so
/// that an editor's save by rename is seen too; elsewhere (or when asked, or when inotify is unavailable) by polling
/// the file's modification time, size and inode.
///
/// Events are debounced (a burst becomes one call). ``stop()`` cancels the Dispatch source, waits until no handler
/// runs, and closes the inotify descriptor; no thread of its own is ever started.
public final class FileWatcher: Sendable {
    /// How changes are noticed.
    public enum Mode: Sendable, Hashable {
        case inotify
        case polling(interval: Duration)
    }

    /// How long a burst of events is gathered before `onChange` runs.
    static let debounce = DispatchTimeInterval.milliseconds(20)

    private final class Shared: Sendable {
        let fileURL: URL
        let onChange: @Sendable () -> Void
        let queue = DispatchQueue(label: "keyscope.file-watcher")
        /// Signalled by the source's cancel handler: after it, no handler of this watcher runs again.
        let cancelled = DispatchSemaphore(value: 0)
        let fields = Mutex(Fields())

        struct Fields {
            var stopped = false
            var firePending = false
            var signature: FileSignature?
        }

        init(fileURL: URL, onChange: @escaping @Sendable () -> Void) {
            self.fileURL = fileURL
            self.onChange = onChange
            queue.setSpecific(key: FileWatcher.onWatcherQueue, value: ObjectIdentifier(self))
        }

        /// Calls `onChange` once after the burst this event belongs to.
        func changed() {
            let schedule = fields.withLock { fields -> Bool in
                guard !fields.stopped, !fields.firePending else { return false }
                fields.firePending = true
                return true
            }
            guard schedule else { return }
            queue.asyncAfter(deadline: .now() + FileWatcher.debounce) {
                let fire = self.fields.withLock { fields -> Bool in
                    fields.firePending = false
                    return !fields.stopped
                }
                if fire { self.onChange() }
            }
        }
    }

    /// The mode in use (``Mode/inotify`` falls back to polling every 250 ms when inotify cannot be set up).
    public let mode: Mode
    private let shared: Shared
    /// The running source; `nil` once stopped. A `Mutex` because `stop()` may come from any thread.
    private let source: Mutex<(any DispatchSourceProtocol)?>

    /// Watches `fileURL` (which need not exist yet) and calls `onChange` on a queue of its own after each burst of
    /// changes; `.inotify` falls back to polling every 250 ms (said once in `logger`) where inotify cannot be used.
    public init(
        fileURL: URL, mode requested: Mode = .inotify, logger: Logger, onChange: @escaping @Sendable () -> Void
    ) {
        let shared = Shared(fileURL: fileURL, onChange: onChange)
        var mode = requested
        var made: (any DispatchSourceProtocol)?
        if case .inotify = requested {
            made = Self.inotifySource(shared)
            if made == nil {
                let reason = String(cString: strerror(errno))
                mode = .polling(interval: .milliseconds(250))
                logger.notice(
                    "inotify is not available; watching the file by polling every 250 ms",
                    metadata: ["file": "\(fileURL.path)", "error": "\(reason)"])
            }
        }
        if case .polling(let interval) = mode { made = Self.pollingSource(shared, interval: interval) }
        made?.resume()
        self.mode = mode
        self.shared = shared
        self.source = Mutex(made)
    }

    deinit { stop() }

    /// Stops watching: after it returns no `onChange` call is running or will start (unless called from inside
    /// `onChange` itself, which cannot wait for itself). Safe to call more than once.
    public func stop() {
        shared.fields.withLock { $0.stopped = true }
        guard
            let running = source.withLock({ source in
                defer { source = nil }
                return source
            })
        else { return }
        running.cancel()
        if DispatchQueue.getSpecific(key: Self.onWatcherQueue) != ObjectIdentifier(shared) {
            shared.cancelled.wait()
        }
    }

    /// Marks each watcher's queue, so that `stop()` called from a handler does not wait for itself.
    fileprivate static let onWatcherQueue = DispatchSpecificKey<ObjectIdentifier>()

    // MARK: Polling

    private static func pollingSource(_ shared: Shared, interval: Duration) -> any DispatchSourceProtocol {
        shared.fields.withLock { $0.signature = FileSignature(path: shared.fileURL.path) }
        let timer = DispatchSource.makeTimerSource(queue: shared.queue)
        let (seconds, attoseconds) = interval.components
        let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        let period = DispatchTimeInterval.nanoseconds(max(1_000_000, nanoseconds))
        timer.schedule(deadline: .now() + period, repeating: period)
        timer.setEventHandler {
            let now = FileSignature(path: shared.fileURL.path)
            let changed = shared.fields.withLock { fields -> Bool in
                defer { fields.signature = now }
                return fields.signature != now
            }
            if changed { shared.changed() }
        }
        timer.setCancelHandler { shared.cancelled.signal() }
        return timer
    }

    // MARK: inotify

    private static func inotifySource(_ shared: Shared) -> (any DispatchSourceProtocol)? {
        #if os(Linux)
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { return nil }
        // Events for names in the directory: in-place writes (close after write: not on each write, so a file is
        // not read half written), saves by rename (moved to), and removal (delete, moved from), which the reload
        // reports.
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE)
        let directory = shared.fileURL.deletingLastPathComponent().path
        guard inotify_add_watch(fd, directory, mask) >= 0 else {
            let saved = errno
            close(fd)
            errno = saved
            return nil
        }
        let name = shared.fileURL.lastPathComponent
        let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: shared.queue)
        source.setEventHandler {
            if readEvents(fd: fd, names: name) { shared.changed() }
        }
        source.setCancelHandler {
            close(fd)
            shared.cancelled.signal()
        }
        return source
        #else
        return nil
        #endif
    }

    #if os(Linux)
    /// Reads every queued inotify event; whether one was about the file `name`.
    private static func readEvents(fd: Int32, names name: String) -> Bool {
        var matched = false
        let capacity = 64 * (MemoryLayout<inotify_event>.size + Int(NAME_MAX) + 1)
        let buffer = UnsafeMutableRawPointer.allocate(
            byteCount: capacity, alignment: MemoryLayout<inotify_event>.alignment)
        defer { buffer.deallocate() }
        while true {
            let count = read(fd, buffer, capacity)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return matched }
            var offset = 0
            while offset + MemoryLayout<inotify_event>.size <= count {
                let event = buffer.load(fromByteOffset: offset, as: inotify_event.self)
                let nameStart = buffer + offset + MemoryLayout<inotify_event>.size
                if event.len > 0 {
                    let eventName = String(cString: nameStart.assumingMemoryBound(to: CChar.self))
                    if eventName == name { matched = true }
                }
                offset += MemoryLayout<inotify_event>.size + Int(event.len)
            }
        }
    }
    #endif
}

/// What polling compares: a change of any field is an edit (an atomic rename changes the inode, an in-place
/// write the modification time or the size); a missing file has none.
struct FileSignature: Sendable, Hashable {
    let exists: Bool
    let inode: UInt64
    let size: Int64
    let modifiedSeconds: Int
    let modifiedNanoseconds: Int

    init(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else {
            (exists, inode, size, modifiedSeconds, modifiedNanoseconds) = (false, 0, 0, 0, 0)
            return
        }
        exists = true
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        #if canImport(Darwin)
        modifiedSeconds = Int(info.st_mtimespec.tv_sec)
        modifiedNanoseconds = Int(info.st_mtimespec.tv_nsec)
        #else
        modifiedSeconds = Int(info.st_mtim.tv_sec)
        modifiedNanoseconds = Int(info.st_mtim.tv_nsec)
        #endif
    }
}
