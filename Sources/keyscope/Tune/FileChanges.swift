import Dispatch
import Foundation
import KeyscopeTunables
import Logging
import Synchronization

/// The saves of one file as a blocking loop, for `keyscope tune watch`: the tunables' own ``FileWatcher`` (inotify on
/// the file's directory, so that an editor's save by rename is seen too; polling where inotify is missing), with
/// ``next()`` waiting for the next burst of changes.
///
/// ```swift
/// let changes = FileChanges(url: URL(fileURLWithPath: "live-constants.json"))
/// while changes.next() { reload() }        // returns false once stop() was called
/// // from another thread (a signal handler's): changes.stop()
/// ```
final class FileChanges: Sendable {
    private let signal: DispatchSemaphore
    private let stopped = Atomic<Bool>(false)
    private let watcher: FileWatcher

    init(url: URL) {
        let signal = DispatchSemaphore(value: 0)
        self.signal = signal
        watcher = FileWatcher(fileURL: url, logger: Logger(label: "keyscope.tune.watch")) { signal.signal() }
    }

    deinit { watcher.stop() }

    /// Blocks until the file may have changed (true), or until ``stop()`` (false).
    func next() -> Bool {
        signal.wait()
        return !stopped.load(ordering: .acquiring)
    }

    /// Ends the current or next ``next()``. Safe from any thread.
    func stop() {
        stopped.store(true, ordering: .releasing)
        watcher.stop()
        signal.signal()
    }
}
