public import Foundation
import KeyscopeCore
import KeyscopeRecording
public import Testing

extension ReplayRecording {
    /// Compares the state after event `seq` (after the last event for `nil`, the header's for 0) with the JSON in
    /// `golden` (docs/store.md, any formatting; store ids renamed since it was written read as their current form), recording an issue with the differences, at most `limit` of them, when
    /// they differ or when the golden file is missing.
    ///
    /// With `update` (default: `KEYSCOPE_UPDATE_GOLDEN=1` is set) the golden file is written instead (pretty JSON,
    /// sorted keys, folders made as needed) and an issue says so.
    ///
    /// ```swift
    /// try recording.expectState(at: 12, matchesGolden: GoldenFiles.url("golden/after-coupon.json"))
    /// // Issue: The state of checkout.kslog at seq 12 differs from golden/after-coupon.json in 2 places:
    /// //   app/memory: cart.total: expected 100, got 90
    /// //   app/memory: cart.coupon: missing, expected "WELCOME10"
    /// ```
    /// - Returns: the differences (empty when the state matches or the golden was written).
    /// - Throws: ``KeyscopeRecording/RecordingError`` for a bad recording; a file error when the golden cannot be
    ///   read or written.
    @discardableResult
    public func expectState(
        at seq: Int64? = nil, matchesGolden golden: URL, limit: Int = 20,
        update: Bool = GoldenFiles.updateRequested, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> StateDiff {
        let actual = try state(at: seq).value
        let which = "The state of \(url.lastPathComponent)" + (seq.map { " at seq \($0)" } ?? "")
        if update {
            try FileManager.default.createDirectory(
                at: golden.deletingLastPathComponent(), withIntermediateDirectories: true)
            try actual.jsonData(pretty: true).write(to: golden, options: .atomic)
            Issue.record(
                Comment(
                    rawValue: "\(which) was written to \(golden.path) (\(GoldenFiles.updateVariable)=1); run again "
                        + "without it to compare"),
                sourceLocation: sourceLocation)
            return StateDiff(expected: actual, actual: actual)
        }
        guard FileManager.default.fileExists(atPath: golden.path) else {
            Issue.record(
                Comment(
                    rawValue: "No golden file at \(golden.path); run with \(GoldenFiles.updateVariable)=1 to write it "
                        + "from the recording"),
                sourceLocation: sourceLocation)
            return StateDiff(expected: .emptyObject, actual: actual)
        }
        let expected = Self.currentStoreIDs(try StoreValue(jsonData: Data(contentsOf: golden)))
        let diff = StateDiff(expected: expected, actual: actual)
        if !diff.isEmpty {
            let count = diff.differences.count
            Issue.record(
                Comment(
                    rawValue: "\(which) differs from \(golden.lastPathComponent) in \(count) "
                        + "place\(count == 1 ? "" : "s"):\n" + diff.description(limit: limit)
                        + "\n(\(GoldenFiles.updateVariable)=1 writes the golden file from the recording)"),
                sourceLocation: sourceLocation)
        }
        return diff
    }

    /// A golden written before a store id was renamed still matches: its top-level keys (store ids) read as their
    /// current form (``KeyscopeCore/StoreID/recorded(_:)``), as the recording's own ids do.
    static func currentStoreIDs(_ golden: StoreValue) -> StoreValue {
        guard case .object(let stores) = golden else { return golden }
        var renamed: [String: StoreValue] = [:]
        for (key, root) in stores { renamed[StoreID.recorded(key)?.description ?? key] = root }
        return .object(renamed)
    }
}
