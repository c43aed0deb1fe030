import Foundation

extension InspectorReport {
    /// The peer's run in the same shape as `scenario`: as many clients, the same client mode, as many patches per
    /// change.
    func peerResult(for scenario: PushScenario) -> PushResult? {
        // The peer does not resume, so a catch-up run has no peer.
        guard !scenario.backlog else { return nil }
        return push.first {
            $0.scenario.kind == .hummingbird && $0.scenario.clients == scenario.clients
                && $0.scenario.mode == scenario.mode && $0.scenario.patchesPerChange == scenario.patchesPerChange
        }
    }

    /// The results files of the parts that ran (`push`, `latency`, `set-cost`), for the summary table.
    var resultsFiles: [ResultsFile] {
        var files: [ResultsFile] = []
        func add(_ part: String, _ title: String, _ figures: [ReportFigure]) {
            guard !figures.isEmpty else { return }
            files.append(
                ResultsFile(
                    part: part, title: title,
                    command: ResultsFile.keyscopeBenchCommand(part),
                    seconds: partSeconds[part] ?? 0, figures: figures))
        }
        add(
            "push", "Inspector push throughput (patches/s to the slowest client; median of \(pushRounds) runs)",
            pushFigures)
        add("latency", "Inspector push latency (set → parsed at the client)", latencyFigures)
        add("set-cost", "What an inspector costs a set (inspected ÷ bare, median of \(setRounds) rounds)", setFigures)
        return files
    }

    /// How many runs of each push scenario were made (the median is over them).
    var pushRounds: Int { push.first?.all.count ?? 0 }

    private var pushFigures: [ReportFigure] {
        push.filter { $0.scenario.kind == .keyscope }.flatMap { result -> [ReportFigure] in
            let shape = result.scenario.name.replacingOccurrences(of: "Keyscope → ", with: "")
            let peer = peerResult(for: result.scenario)
            let peerName = "hummingbird-websocket server, same shape"
            // HummingbirdPeer feeds one client at a time (it installs its hook in the hub's appendSignal).
            let why =
                result.scenario.backlog
                ? "the peer cannot resume a client"
                : result.scenario.clients > 1
                    ? "the peer serves one client at a time" : "no peer run in this shape"
            return [
                ReportFigure(
                    "to \(shape)", result.median.delivered, unit: "/s", better: .higher,
                    peer: peer.map { _ in peerName }, peerValue: peer?.median.delivered, noPeer: why),
                ReportFigure(
                    "  server CPU per patch", result.median.serverMicrosecondsPerPatch, unit: "µs", better: .lower,
                    peer: peer.map { _ in peerName }, peerValue: peer?.median.serverMicrosecondsPerPatch, noPeer: why),
            ]
        }
    }

    private var latencyFigures: [ReportFigure] {
        latencies.filter { $0.kind == .keyscope }.flatMap { _, own -> [ReportFigure] in
            let peer = latencies.first { $0.kind == .hummingbird && $0.sample.rate == own.rate }?.sample
            let peerName = peer.map { _ in "hummingbird-websocket server, same rate" }
            return [
                ReportFigure(
                    "p50 at \(own.rate / 1000)k changes/s", Double(own.p50) / 1e3, unit: "µs", better: .lower,
                    peer: peerName, peerValue: peer.map { Double($0.p50) / 1e3 }),
                ReportFigure(
                    "p99 at \(own.rate / 1000)k changes/s", Double(own.p99) / 1e3, unit: "µs", better: .lower,
                    peer: peerName, peerValue: peer.map { Double($0.p99) / 1e3 }),
            ]
        }
    }

    private var setFigures: [ReportFigure] {
        Report.pairedFigures(setResults, pairs: InspectedSetBenchmarks.pairs)
    }
}
