import Foundation

extension StoreBenchmarks {
    /// Each store row of the summary table and the seed-store row it is set beside (`nil`: no peer). Ratios in the
    /// section's own table stay against the one baseline.
    static let peers: [(row: String, summary: String, peer: String?)] = [
        ("store set cart.total, literal", "set cart.total, literal path", baseline),
        ("store set cart.total, pre-parsed", "set cart.total, pre-parsed path", baseline),
        ("store set, new key, parsed", "set, new key, path parsed", "seed store set, new key (peer)"),
        ("store set, new key, pre-parsed", "set, new key, pre-parsed path", "seed store set, new key (peer)"),
        ("store set items[i].title, parsed", "set items[i].title, path parsed", "seed store set items[i].title (peer)"),
        (
            "store set items[i].title, pre-parsed", "set items[i].title, pre-parsed path",
            "seed store set items[i].title (peer)"
        ),
        ("store get cart.total, literal", "get cart.total, literal path", "seed store get cart.total (peer)"),
        ("store get cart.total, pre-parsed", "get cart.total, pre-parsed path", "seed store get cart.total (peer)"),
        ("store set, 10 subscribers elsewhere", "set, 10 subscribers elsewhere", baseline),
        ("store set, observation hook attached", "set, observation hook attached", baseline),
        ("transaction of 100 sets, per patch", "transaction of 100 sets, per patch", baseline),
        ("key-path parse items[3].title, repeated", "key-path parse items[3].title, repeated", nil),
        ("key-path parse, 1,000 different paths", "key-path parse, 1,000 different paths", nil),
    ]

    /// The store section's figures for the summary table: each store row beside its seed-store peer.
    static func figures(_ results: [BenchmarkResult]) -> [ReportFigure] {
        peers.compactMap { row, summary, peerName in
            guard let result = results.first(where: { $0.name == row }) else { return nil }
            let peer = peerName.flatMap { name in results.first { $0.name == name } }
            return ReportFigure(
                summary, result.median, unit: "ns", better: .lower,
                peer: peer.map { $0.name.replacingOccurrences(of: " (peer)", with: "") }, peerValue: peer?.median,
                noPeer: "the seed store has no key paths to parse")
        }
    }
}
