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

    /// Benchmark rows with their median, minimum and the ratio of their median to their peer's (`pairs`: each row's
    /// name and its peer's), under `ratioHeader`; rows without a peer show `missing` there.
    static func ratioGrid(
        _ results: [BenchmarkResult], pairs: [(String, String)], ratioHeader: String, missing: String = "—"
    ) -> String {
        grid(
            ["benchmark", "ns/op median", "min", ratioHeader],
            results.map { result in
                let peer = pairs.first { $0.0 == result.name }.flatMap { pair in
                    results.first { $0.name == pair.1 }
                }
                return [
                    result.name, number(result.median), number(result.minimum),
                    peer.map { ratio(result.median / $0.median) } ?? missing,
                ]
            })
    }

    /// The summary figures of paired rows (`pairs`: each row's name and its peer's): ns per operation, lower is
    /// better, beside the peer's.
    static func pairedFigures(_ results: [BenchmarkResult], pairs: [(String, String)]) -> [ReportFigure] {
        pairs.compactMap { name, peerName in
            guard let own = results.first(where: { $0.name == name }),
                let peer = results.first(where: { $0.name == peerName })
            else { return nil }
            return ReportFigure(name, own.median, unit: "ns", better: .lower, peer: peerName, peerValue: peer.median)
        }
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
