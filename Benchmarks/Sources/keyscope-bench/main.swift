import Foundation

// keyscope-bench: the store's costs next to a plain dictionary's, as one table.
// Run with `swift run -c release keyscope-bench` from Benchmarks/ (a debug build measures nothing useful).

#if DEBUG
FileHandle.standardError.write(Data("warning: this is a debug build; run with -c release for real figures\n".utf8))
#endif

let harness = Harness()
let start = ContinuousClock.now
let results = try harness.run(StoreBenchmarks.all) { note in
    FileHandle.standardError.write(Data("  \(note)\n".utf8))
}
let elapsed = ContinuousClock.now - start

print(Report.table(results, baseline: StoreBenchmarks.baseline))
print()
print(Report.notes(rounds: harness.rounds, results: results, elapsed: elapsed))
print(
    """
    New-key rows add keys k0…k\(StoreBenchmarks.batchSize - 1) to a fresh dictionary or store (a small cart and \
    12 top-level keys), then start over; the other store rows write cart.total, alternating 90 and 100.
    """)
