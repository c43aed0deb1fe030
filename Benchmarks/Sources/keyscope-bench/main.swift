import Foundation

// keyscope-bench: the store's costs next to a plain dictionary's, then the inspector's figures (push throughput
// against a Hummingbird peer, latency, the cost of an inspected set), as tables.
// Run with `swift run -c release keyscope-bench [SECTION…]` from Benchmarks/ (a debug build measures nothing
// useful). Sections: `store`, `inspector` (= `push latency set-cost`); with no argument, all of them.

#if DEBUG
FileHandle.standardError.write(Data("warning: this is a debug build; run with -c release for real figures\n".utf8))
#endif

let inspectorParts = Set(InspectorBenchmarks.parts)
let known = inspectorParts.union(["store", "inspector"])
let asked = Set(CommandLine.arguments.dropFirst())
guard asked.isSubset(of: known) else {
    FileHandle.standardError.write(
        Data("usage: keyscope-bench [store] [inspector | push latency set-cost]  (no argument: all)\n".utf8))
    exit(64)
}
var sections = asked.isEmpty ? known : asked
if sections.contains("inspector") { sections.formUnion(inspectorParts) }

func note(_ text: String) {
    FileHandle.standardError.write(Data("  \(text)\n".utf8))
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
}

if !sections.isDisjoint(with: inspectorParts) {
    if sections.contains("store") { print() }
    do {
        print(try InspectorBenchmarks.run(sections.intersection(inspectorParts), progress: note))
    } catch {
        FileHandle.standardError.write(Data("keyscope-bench: the inspector benchmarks failed: \(error)\n".utf8))
        exit(1)
    }
}
