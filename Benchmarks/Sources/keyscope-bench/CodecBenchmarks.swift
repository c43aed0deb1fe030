import Foundation
import KeyscopeCodec
import KeyscopeCore

/// Encoding and decoding the same values with Keyscope's coders (the jansson codec, KeyscopeCodec; the core's own
/// JSON writer and reader) and with Foundation's (`JSONEncoder`/`JSONDecoder`, the peer; `JSONSerialization` for
/// reference), rounds interleaved by the ``Harness``.
///
/// Every coder starts from the same input and ends with the same result, checked once before timing: the Keyscope
/// and `JSONEncoder` outputs decode to the input value, and the decoders return the input value (a ``LogEntry`` for
/// the line; `JSONSerialization` returns its own Foundation tree, which is what it offers).
///
/// ```swift
/// let codec = try CodecBenchmarks()
/// let results = try Harness().run(codec.all)
/// print(codec.table(results))
/// ```
struct CodecBenchmarks {
    enum Direction: String {
        case encode, decode
    }

    enum Coder {
        /// KeyscopeCodec's `JanssonCodec`.
        case jansson
        /// KeyscopeCore's own writer and reader (`jsonBytes(sortedKeys:)`, `StoreValue(jsonBytes:)`).
        case core
        /// The peer: `JSONEncoder` and `JSONDecoder`.
        case foundation
        /// `JSONSerialization`, for reference.
        case serialization

        func name(_ direction: Direction) -> String {
            switch self {
            case .jansson: "Keyscope jansson codec"
            case .core: direction == .encode ? "Keyscope core writer" : "Keyscope core reader"
            case .foundation: direction == .encode ? "Foundation JSONEncoder" : "Foundation JSONDecoder"
            case .serialization: "Foundation JSONSerialization"
            }
        }
    }

    /// One benchmark's place in the tables: what it does to which input, with which coder.
    struct Row {
        let direction: Direction
        let input: String
        let coder: Coder
        let bytes: Int
        var name: String { "\(direction.rawValue) \(input): \(coder.name(direction))" }
    }

    private(set) var rows: [Row] = []
    private(set) var all: [Benchmark] = []

    init() throws {
        let inputs = CodecInputs()
        for (input, value) in [("snapshot (100 items)", inputs.snapshot), ("cart (nested)", inputs.cart)] {
            try addValue(input, value)
        }
        try addLine("log line (one set)", inputs.line)
    }

    private mutating func add(
        _ direction: Direction, _ input: String, _ coder: Coder, bytes: Int, _ work: @escaping () throws -> Void
    ) {
        let row = Row(direction: direction, input: input, coder: coder, bytes: bytes)
        rows.append(row)
        all.append(
            Benchmark(row.name) { iterations in
                try ContinuousClock().measure { for _ in 0..<iterations { try work() } }
            })
    }

    private mutating func addValue(_ input: String, _ value: StoreValue) throws {
        let bytes = try JanssonCodec.encode(value)
        let data = Data(bytes)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let decoder = JSONDecoder()
        let tree = foundationObject(value)
        // The same value in, the same value out, for every coder (untimed).
        guard try JanssonCodec.decode(encoder.encode(value)) == value,
            try decoder.decode(StoreValue.self, from: data) == value,
            try StoreValue(jsonBytes: bytes) == value,
            value.jsonBytes(sortedKeys: true) == bytes
        else { throw BenchError("the coders disagree on the \(input)") }

        add(.encode, input, .jansson, bytes: bytes.count) { blackhole(try JanssonCodec.encode(value)) }
        add(.encode, input, .core, bytes: bytes.count) { blackhole(value.jsonBytes(sortedKeys: true)) }
        add(.encode, input, .foundation, bytes: bytes.count) { blackhole(try encoder.encode(value)) }
        add(.encode, input, .serialization, bytes: bytes.count) {
            blackhole(try JSONSerialization.data(withJSONObject: tree, options: [.sortedKeys]))
        }
        add(.decode, input, .jansson, bytes: bytes.count) { blackhole(try JanssonCodec.decode(bytes)) }
        add(.decode, input, .core, bytes: bytes.count) { blackhole(try StoreValue(jsonBytes: bytes)) }
        add(.decode, input, .foundation, bytes: bytes.count) {
            blackhole(try decoder.decode(StoreValue.self, from: data))
        }
        add(.decode, input, .serialization, bytes: bytes.count) {
            blackhole(try JSONSerialization.jsonObject(with: data))
        }
    }

    private mutating func addLine(_ input: String, _ entry: LogEntry) throws {
        let bytes = try JanssonCodec.encode(entry)
        let data = Data(bytes)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let decoder = JSONDecoder()
        guard try encoder.encode(CodableLogLine(entry)) == data,
            try decoder.decode(CodableLogLine.self, from: data).entry() == entry,
            try JanssonCodec.decodeLogEntry(bytes) == entry
        else { throw BenchError("the coders disagree on the \(input)") }

        add(.encode, input, .jansson, bytes: bytes.count) { blackhole(try JanssonCodec.encode(entry)) }
        add(.encode, input, .foundation, bytes: bytes.count) {
            blackhole(try encoder.encode(CodableLogLine(entry)))
        }
        add(.decode, input, .jansson, bytes: bytes.count) { blackhole(try JanssonCodec.decodeLogEntry(bytes)) }
        add(.decode, input, .foundation, bytes: bytes.count) {
            blackhole(try decoder.decode(CodableLogLine.self, from: data).entry())
        }
    }

    /// The Foundation coder's result for the same input and direction: what each row is set beside.
    private func peer(of row: Row, in results: [BenchmarkResult]) -> BenchmarkResult? {
        let name = Row(direction: row.direction, input: row.input, coder: .foundation, bytes: 0).name
        return results.first { $0.name == name }
    }

    /// The section's table: every coder on every input, with MB/s and the ratio to Foundation's coder.
    func table(_ results: [BenchmarkResult], rounds: Int) -> String {
        let lines = zip(rows, results).map { row, result in
            let megabytesPerSecond = Double(row.bytes) / result.median * 1e3
            return [
                row.name, "\(row.bytes)", Report.number(result.median), Report.number(result.minimum),
                String(format: "%.0f", megabytesPerSecond),
                peer(of: row, in: results).map { Report.ratio(result.median / $0.median) } ?? "",
            ]
        }
        return """
            Codec: the same values encoded and decoded by each coder (ns per value; median and minimum of \(rounds) \
            interleaved rounds)
            \(Report.grid(["benchmark", "bytes", "ns/op median", "min", "MB/s", "÷ JSONEncoder/Decoder"], lines))
            Inputs: the push workload's store (100 items with a 60-character title, a price and a quantity), a nested \
            cart (six items with tags and fractions, a user, a session, a color) and one log line of the push \
            workload (a set of a 60-character title, with old and new). Keyscope's coders write compact JSON with \
            sorted keys; JSONEncoder is set to .sortedKeys and .withoutEscapingSlashes so that it writes the same \
            kind of text (StoreValue's Codable conformance; the line through a Codable struct of the same members, \
            made from and turned back into the same LogEntry inside the timed loop). JSONSerialization encodes a \
            Foundation tree built once beforehand and decodes into one (no StoreValue): for reference only.
            """
    }

    /// The summary table's codec rows: Keyscope's coders beside Foundation's JSONEncoder or JSONDecoder.
    func figures(_ results: [BenchmarkResult]) -> [ReportFigure] {
        zip(rows, results).compactMap { row, result in
            guard row.coder == .jansson || row.coder == .core else { return nil }
            let peer = peer(of: row, in: results)
            return ReportFigure(
                "\(row.direction.rawValue) \(row.input), \(row.coder.name(row.direction))", result.median, unit: "ns",
                better: .lower, peer: peer.map { _ in Coder.foundation.name(row.direction) }, peerValue: peer?.median)
        }
    }
}
