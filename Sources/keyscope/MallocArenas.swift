#if canImport(Glibc)
import Glibc
#endif

/// How many heaps (arenas) glibc's malloc keeps in `keyscope serve`'s process.
///
/// glibc gives each thread that meets a busy arena another one, up to eight per core, and never merges them. In the
/// inspector, short-lived Dispatch workers (the log's settling, the watch rules, the deliveries timer) read and
/// free the hub's log entries, so the entries that live on end up spread over every arena, and each arena's heap
/// grows on its own: in `make load`'s soak, with the hub's trim (``HubOptions/freedMemoryReturn``), RSS still grew
/// 2 to 4 MiB a minute with glibc's 15 arenas, and +0.35 MiB/min with 2 (`MALLOC_ARENA_MAX=2`). The server has two
/// busy threads (the service thread and the demo's), so two arenas cost it nothing.
///
/// This is the process's own setting, so only the `keyscope` command makes it; a service that embeds the inspector
/// chooses its own (docs/hardening.md, "Memory"). A `MALLOC_ARENA_MAX` in the environment wins.
enum MallocArenas {
    /// The arenas `keyscope serve` allows.
    static let serveLimit: Int32 = 2

    /// Limits glibc to `count` arenas, unless `MALLOC_ARENA_MAX` is set; does nothing off glibc. Call it before the
    /// threads start (arenas already made stay).
    static func limit(to count: Int32) {
        #if canImport(Glibc)
        guard getenv("MALLOC_ARENA_MAX") == nil,
            let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt")
        else { return }
        let mallopt = unsafeBitCast(symbol, to: (@convention(c) (Int32, Int32) -> Int32).self)
        _ = mallopt(arenaMaxParameter, count)
        #endif
    }

    /// glibc's `M_ARENA_MAX` (malloc.h, which Swift's Glibc module leaves out).
    private static let arenaMaxParameter: Int32 = -8
}
