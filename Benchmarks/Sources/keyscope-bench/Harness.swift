/// A small benchmark harness: calibrate, warm up, then time rounds of many iterations with `ContinuousClock`,
/// interleaving the rounds of all benchmarks so that they are measured side by side under the same conditions.
///
/// ```swift
/// let benchmark = Benchmark("dictionary set") { iterations in
///     var dictionary: [String: Int] = ["a": 0]
///     return ContinuousClock().measure {
///         for i in 0..<iterations { dictionary["a"] = i; blackhole(dictionary) }
///     }
/// }
/// let results = Harness(rounds: 7).run([benchmark])
/// ```
struct Benchmark {
    /// The name in the table.
    let name: String
    /// Extra rows derived from this one by dividing its times (e.g. "per patch" of a 100-patch transaction).
    let perPart: [(name: String, parts: Int)]
    /// Runs `iterations` iterations and returns the time of the measured part only (setup is left out).
    let body: (_ iterations: Int) throws -> Duration

    init(
        _ name: String, perPart: [(name: String, parts: Int)] = [],
        body: @escaping (_ iterations: Int) throws -> Duration
    ) {
        self.name = name
        self.perPart = perPart
        self.body = body
    }
}

/// The times of one benchmark (or one derived row), in nanoseconds per operation.
struct BenchmarkResult {
    let name: String
    let iterations: Int
    /// One value per round.
    let nanosecondsPerOperation: [Double]

    var median: Double {
        let sorted = nanosecondsPerOperation.sorted()
        let middle = sorted.count / 2
        return sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
    }

    var minimum: Double { nanosecondsPerOperation.min() ?? .nan }
}

struct Harness {
    /// Measured rounds per benchmark.
    var rounds = 7
    /// What one round should take; the iteration count of each benchmark is chosen to come close.
    var roundTarget = Duration.milliseconds(80)
    /// Bounds on iterations per round (the upper one also bounds the memory of the growing benchmarks).
    var iterationRange = 100...1_000_000

    /// Calibrates and warms up every benchmark, then runs `rounds` rounds of each, round-robin.
    func run(_ benchmarks: [Benchmark], progress: (String) -> Void = { _ in }) throws -> [BenchmarkResult] {
        var counts: [Int] = []
        for benchmark in benchmarks {
            let count = try calibrate(benchmark)
            _ = try benchmark.body(count)  // warm-up at the measured size
            counts.append(count)
            progress("calibrated \(benchmark.name): \(count) iterations per round")
        }
        var samples = Array(repeating: [Double](), count: benchmarks.count)
        for round in 1...rounds {
            for (index, benchmark) in benchmarks.enumerated() {
                let elapsed = try benchmark.body(counts[index])
                samples[index].append(Self.nanoseconds(elapsed) / Double(counts[index]))
            }
            progress("round \(round) of \(rounds) done")
        }
        var results: [BenchmarkResult] = []
        for (index, benchmark) in benchmarks.enumerated() {
            results.append(
                BenchmarkResult(
                    name: benchmark.name, iterations: counts[index], nanosecondsPerOperation: samples[index]))
            for part in benchmark.perPart {
                results.append(
                    BenchmarkResult(
                        name: part.name, iterations: counts[index] * part.parts,
                        nanosecondsPerOperation: samples[index].map { $0 / Double(part.parts) }))
            }
        }
        return results
    }

    /// Grows the iteration count until a run is long enough to time, then scales it to the round target.
    private func calibrate(_ benchmark: Benchmark) throws -> Int {
        var count = iterationRange.lowerBound
        while true {
            let elapsed = try benchmark.body(count)
            if elapsed >= roundTarget / 8 || count >= iterationRange.upperBound {
                let perIteration = max(Self.nanoseconds(elapsed) / Double(count), 0.01)
                let wanted = Int(Self.nanoseconds(roundTarget) / perIteration)
                return min(max(wanted, iterationRange.lowerBound), iterationRange.upperBound)
            }
            count = min(count * 4, iterationRange.upperBound)
        }
    }

    static func nanoseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1e9 + Double(attoseconds) / 1e9
    }
}

/// Where ``blackhole(_:)`` leaves the address of what it was given; a write to a global that the optimiser must
/// keep. Only the benchmark thread touches it.
nonisolated(unsafe) private var blackholeSink: UnsafeRawPointer?

/// Consumes a result so that the optimiser cannot drop the work that produced it.
@inline(never)
func blackhole<T>(_ value: T) {
    withUnsafePointer(to: value) { blackholeSink = UnsafeRawPointer($0) }
}
