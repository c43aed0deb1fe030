import Foundation

/// One figure for the summary table that `Benchmarks/report.py` prints: Keyscope's value and, beside it, the peer's
/// from the same run (or why there is none).
///
/// ```swift
/// ReportFigure("set, existing key", 476, unit: "ns", better: .lower,
///              peer: "dictionary set, existing key", peerValue: 28.3)
/// ```
struct ReportFigure: Encodable {
    enum Better: String, Encodable {
        case lower, higher
    }

    let name: String
    let value: Double
    /// `ns`, `µs`, `ms`, `s`, `/s`, `MiB`, `%`…: report.py formats the numbers by it.
    let unit: String
    let better: Better
    let peer: String?
    let peerValue: Double?
    /// Why the figure has no peer, when it has none.
    let noPeer: String?

    init(
        _ name: String, _ value: Double, unit: String, better: Better, peer: String? = nil, peerValue: Double? = nil,
        noPeer: String? = nil
    ) {
        self.name = name
        self.value = value
        self.unit = unit
        self.better = better
        self.peer = peer
        self.peerValue = peerValue
        self.noPeer = peer == nil ? (noPeer ?? "no peer") : nil
    }
}

/// A part's figures as one JSON file (`<part>.json`) in the results folder, the shape every part of `make bench`
/// writes (the Python benches through `Benchmarks/bench_results.py`): report.py reads them all and prints one table.
///
/// The folder is `$KEYSCOPE_BENCH_RESULTS`, else `.build-bench/results/` at the root of the checkout (git-ignored).
///
/// ```swift
/// try ResultsFile(part: "store", title: "Store operations", command: "keyscope-bench store",
///                 seconds: 21.4, figures: figures).write()
/// ```
struct ResultsFile: Encodable {
    /// The file's name without `.json`, and the key report.py orders parts by.
    let part: String
    let title: String
    /// How to run this part again alone.
    let command: String
    /// When the part finished, UTC, ISO 8601.
    let finished: String
    let seconds: Double
    let cores: Int
    let figures: [ReportFigure]

    init(part: String, title: String, command: String, seconds: Double, figures: [ReportFigure]) {
        self.part = part
        self.title = title
        self.command = command
        self.seconds = seconds
        self.figures = figures
        finished = ISO8601DateFormatter().string(from: Date())
        cores = ProcessInfo.processInfo.activeProcessorCount
    }

    /// How to run one section of keyscope-bench alone: the `command` of the Swift parts' files.
    static func keyscopeBenchCommand(_ section: String) -> String {
        "swift run -c release --package-path Benchmarks keyscope-bench \(section)"
    }

    /// The results folder: `$KEYSCOPE_BENCH_RESULTS`, else `.build-bench/results` in the checkout this tool was
    /// built from.
    static var folder: URL {
        if let path = ProcessInfo.processInfo.environment["KEYSCOPE_BENCH_RESULTS"], !path.isEmpty {
            return URL(fileURLWithPath: path, isDirectory: true)
        }
        // This file is Benchmarks/Sources/keyscope-bench/ResultsFile.swift: four levels below the checkout.
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { root.deleteLastPathComponent() }
        return root.appendingPathComponent(".build-bench/results", isDirectory: true)
    }

    /// Writes `<part>.json` (through a temporary file and a rename, so report.py never reads half a file) and
    /// returns its path.
    @discardableResult
    func write() throws -> String {
        let folder = Self.folder
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let target = folder.appendingPathComponent("\(part).json")
        try encoder.encode(self).write(to: target, options: .atomic)
        return target.path
    }
}
