import Foundation

/// Formats benchmark results as one plain-text table, with the notes a reader needs to weigh the figures.
///
/// ```swift
/// print(Report.table(results, baseline: "seed store set cart.total (peer)"))
/// ```
enum Report {
    static func table(_ results: [BenchmarkResult], baseline: String) -> String {
        let reference = results.first { $0.name == baseline }?.median ?? .nan
        let header = ["benchmark", "ns/op median", "min", "ratio"]
        let rows = results.map { result in
            [result.name, number(result.median), number(result.minimum), ratio(result.median / reference)]
        }
        return grid(header, rows)
    }

    /// Rows under a header, in columns: the first left-aligned, the others right-aligned, a rule under the header.
    static func grid(_ header: [String], _ rows: [[String]]) -> String {
        let widths = header.indices.map { column in
            ([header] + rows).map { $0[column].count }.max() ?? 0
        }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                return column == 0 ? cell + padding : padding + cell  // names left, numbers right
            }.joined(separator: "  ")
        }
        let rule = widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")
        return ([line(header), rule] + rows.map(line)).joined(separator: "\n")
    }

    static func notes(rounds: Int, results: [BenchmarkResult], elapsed: Duration) -> String {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let seconds = Harness.nanoseconds(elapsed) / 1e9
        return """
            Machine: \(cores) active cores (shared; other work may run beside this). \
            Figures are medians (and minima) of \(rounds) rounds per benchmark, measured side by side in one run: \
            the rounds of all benchmarks are interleaved, each round times N iterations with ContinuousClock \
            (N chosen per benchmark for about 80 ms a round, after a warm-up). Ratio = median / median of \
            "\(StoreBenchmarks.baseline)". Whole run: \(String(format: "%.1f", seconds)) s.
            """
    }

    static func number(_ value: Double) -> String {
        value >= 100 ? String(format: "%.0f", value) : String(format: "%.1f", value)
    }

    static func ratio(_ value: Double) -> String {
        value >= 100 ? String(format: "%.0f×", value) : String(format: "%.1f×", value)
    }
}
