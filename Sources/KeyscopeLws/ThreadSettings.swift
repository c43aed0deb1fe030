package import Logging

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The calling OS thread's name and priority, which Foundation's `Thread` does not set on Linux.
package enum ThreadSettings {
    /// Names the calling OS thread (what top -H, perf and /proc show). There through /proc/thread-self/comm on
    /// Linux: the glibc call for it is not visible to Swift; on Apple platforms `pthread_setname_np` names the
    /// calling thread.
    package static func nameOSThread(_ name: String) {
        #if os(Linux)
        guard let file = fopen("/proc/thread-self/comm", "w") else { return }
        fputs(name, file)
        fclose(file)
        #elseif canImport(Darwin)
        _ = pthread_setname_np(name)
        #endif
    }

    /// Sets the calling thread's nice value. On Linux `setpriority` with `PRIO_PROCESS` and 0 changes the calling
    /// thread only (nice values are per thread there). Elsewhere it would lower the whole process, so the thread
    /// keeps its priority. 0 (or less) changes nothing; the most is 19 (a thread may lower its priority, not raise
    /// it).
    package static func lowerPriority(to nice: Int, logger: Logger) {
        #if os(Linux)
        let nice = Int32(min(max(nice, 0), 19))
        guard nice > 0 else { return }
        if setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, nice) != 0 {
            logger.notice("could not lower the service thread's priority (nice \(nice)): errno \(errno)")
        }
        #endif
    }
}
