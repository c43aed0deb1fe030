import Foundation

// keyscope-bench: the store's costs next to the seed store's, the codec next to Foundation's JSON coders, then
// the inspector's figures (push throughput and latency against a Hummingbird peer, the cost of an inspected set), as
// tables, and backend storage on Redis (sync latency between two instances, the cost of a set on a Redis-backed
// store). Each section also writes its figures to `<section>.json` in the results folder (ResultsFile), from which
// Benchmarks/report.py prints the summary table of `make bench`.
// Run with `swift run -c release keyscope-bench [SECTION…]` from Benchmarks/ (a debug build measures nothing
// useful). Sections: `store`, `codec`, `inspector` (= `push latency set-cost`), `backend` (starts a redis-server of
// its own); with no argument, all of them.

#if DEBUG
FileHandle.standardError.write(Data("warning: this is a debug build; run with -c release for real figures\n".utf8))
#endif

let inspectorParts = Set(InspectorBenchmarks.parts)
let known = inspectorParts.union(["store", "codec", "inspector", "backend"])
let asked = Set(CommandLine.arguments.dropFirst())
let usage = """
    usage: keyscope-bench [store] [codec] [inspector | push latency set-cost] [backend]  (no argument: all)
           keyscope-bench profile ROW ITERATIONS
      store      store reads and writes beside the seed store (a dictionary behind a DispatchQueue) and a dictionary
      codec      the codecs beside Foundation's JSONEncoder and JSONDecoder
      push       inspector push throughput beside a hummingbird-websocket server
      latency    set → parsed at the client, beside the same peer
      set-cost   an inspected set ÷ a bare one
      backend    Redis-backed stores: sync latency between two instances, a set's cost ÷ a memory store's (starts a
                 redis-server of its own)
      profile    runs one row of the store part once, ITERATIONS times, untimed: for a profiler. valgrind 3.19 cannot
                 read this binary's debug info, so strip it first (the symbols stay):
                   objcopy --strip-debug .build/release/keyscope-bench /tmp/kb
                   valgrind --tool=callgrind /tmp/kb profile "store set cart.total, literal" 12000
                 Run it at two sizes and divide the difference by the difference of the sizes: setup cancels out.
    Build and run in release: swift run -c release keyscope-bench store (from Benchmarks/). Figures go to
    $KEYSCOPE_BENCH_RESULTS (else .build-bench/results/ in the checkout), one <part>.json per part.

    """
if !asked.isDisjoint(with: ["--help", "-h", "help"]) {
    print(usage, terminator: "")
    exit(0)
}
if CommandLine.arguments.dropFirst().first == "profile" {
    let arguments = Array(CommandLine.arguments.dropFirst(2))
    let rows = StoreBenchmarks.all
    guard arguments.count == 2, let iterations = Int(arguments[1]), iterations > 0,
        let row = rows.first(where: { $0.name == arguments[0] })
    else {
        FileHandle.standardError.write(
            Data(
                ("usage: keyscope-bench profile ROW ITERATIONS, ROW one of:\n"
                    + rows.map { "  \($0.name)\n" }.joined()).utf8))
        exit(64)
    }
    _ = try row.body(iterations)
    exit(0)
}
guard asked.isSubset(of: known) else {
    FileHandle.standardError.write(Data(usage.utf8))
    exit(64)
}
var sections = asked.isEmpty ? known : asked
if sections.contains("inspector") { sections.formUnion(inspectorParts) }

func note(_ text: String) {
    FileHandle.standardError.write(Data("  \(text)\n".utf8))
}

/// Writes a section's results file, or says why it could not (the tables above stand on their own).
func save(_ file: ResultsFile) {
    do {
        note("figures written to \(try file.write())")
    } catch {
        FileHandle.standardError.write(Data("keyscope-bench: could not write \(file.part).json: \(error)\n".utf8))
    }
}

if sections.contains("store") {
    let harness = Harness()
    let start = ContinuousClock.now
    let results = try harness.run(StoreBenchmarks.all, progress: note)
    let elapsed = ContinuousClock.now - start

    print(Report.table(results, baseline: StoreBenchmarks.baseline))
    print()
    print(Report.notes(rounds: harness.rounds, results: results, elapsed: elapsed))
    print(
        """
        The peer is the seed store: a [String: StoreValue] behind a serial DispatchQueue.sync, an OpenCombine \
        (Combine) subject send per change, the key path as a flat string key. "literal" rows write \
        store.set("cart.total", …) as users do, the literal parsed on every call; "parsed" rows parse a String \
        each call; "pre-parsed" rows reuse a StoreKeyPath. New-key rows add keys k0…k\(StoreBenchmarks.batchSize - 1) \
        to a fresh store (a small cart, 100 items and 12 other top-level keys), then start over; items[i].title rows \
        take i = 0…99 in turn, each pass writing the other of two 60-character titles; the other writes set \
        cart.total, alternating 90 and 100.
        """)
    save(
        ResultsFile(
            part: "store", title: "Store operations (ns per operation, median of \(harness.rounds) rounds)",
            command: ResultsFile.keyscopeBenchCommand("store"), seconds: Harness.nanoseconds(elapsed) / 1e9,
            figures: StoreBenchmarks.figures(results)))
}

if sections.contains("codec") {
    if sections.contains("store") { print() }
    let harness = Harness()
    let start = ContinuousClock.now
    let codec = try CodecBenchmarks()
    let results = try harness.run(codec.all) { note("codec: \($0)") }
    let elapsed = ContinuousClock.now - start
    print(codec.table(results, rounds: harness.rounds))
    save(
        ResultsFile(
            part: "codec", title: "Encoding and decoding (ns per value, median of \(harness.rounds) rounds)",
            command: ResultsFile.keyscopeBenchCommand("codec"), seconds: Harness.nanoseconds(elapsed) / 1e9,
            figures: codec.figures(results)))
}

if !sections.isDisjoint(with: inspectorParts) {
    if !sections.isDisjoint(with: ["store", "codec"]) { print() }
    do {
        let report = try InspectorBenchmarks.run(sections.intersection(inspectorParts), progress: note)
        print(report.text)
        report.resultsFiles.forEach(save)
    } catch {
        FileHandle.standardError.write(Data("keyscope-bench: the inspector benchmarks failed: \(error)\n".utf8))
        exit(1)
    }
}

if sections.contains("backend") {
    if sections.count > 1 { print() }
    do {
        let backend = try BackendBenchmarks.run(progress: note)
        print(backend.text)
        save(backend.resultsFile)
    } catch {
        FileHandle.standardError.write(Data("keyscope-bench: the backend benchmarks failed: \(error)\n".utf8))
        exit(1)
    }
}
