import Foundation

// keyscope-bench: the store's costs next to a plain dictionary's, the codec next to Foundation's JSON coders, then
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
guard asked.isSubset(of: known) else {
    FileHandle.standardError.write(
        Data(
            "usage: keyscope-bench [store] [codec] [inspector | push latency set-cost] [backend]  (no argument: all)\n"
                .utf8))
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
        New-key rows add keys k0…k\(StoreBenchmarks.batchSize - 1) to a fresh dictionary or store (a small cart and \
        12 top-level keys), then start over; the other store rows write cart.total, alternating 90 and 100.
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
