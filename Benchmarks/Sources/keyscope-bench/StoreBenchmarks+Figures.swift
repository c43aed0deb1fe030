import Foundation

extension StoreBenchmarks {
    /// Each store row of the summary table and the dictionary row it is set beside (`nil`: no peer). Ratios in the
    /// section's own table stay against the one baseline.
    static let peers: [(row: String, summary: String, peer: String?)] = [
        ("store set, existing key", "set cart.total, existing key", baseline),
        ("store set, new key", "set, new key", "dictionary set, new key (peer)"),
        ("store get cart.total", "get cart.total", "dictionary get, existing key (peer)"),
        ("store set, 10 subscribers elsewhere", "set, 10 subscribers elsewhere", baseline),
        ("store set, observation hook attached", "set, observation hook attached", baseline),
        ("transaction of 100 sets, per patch", "transaction of 100 sets, per patch", baseline),
        ("key-path parse items[3].title", "key-path parse items[3].title", nil),
    ]

    /// The store section's figures for the summary table: each store row beside its dictionary peer.
    static func figures(_ results: [BenchmarkResult]) -> [ReportFigure] {
        peers.compactMap { row, summary, peerName in
            guard let result = results.first(where: { $0.name == row }) else { return nil }
            let peer = peerName.flatMap { name in results.first { $0.name == name } }
            return ReportFigure(
                summary, result.median, unit: "ns", better: .lower,
                peer: peer.map { $0.name.replacingOccurrences(of: " (peer)", with: "") }, peerValue: peer?.median,
                noPeer: "a dictionary has no key paths to parse")
        }
    }
}
