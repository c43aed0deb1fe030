/// Collects the patches of a transaction, folding later writes into earlier ones per docs/store.md:
/// a write folds into an earlier patch on the identical path (first `old`, last `new`, at the earlier position)
/// only when nothing in between touches that path, an ancestor or a descendant, or shifts an array on it.
/// Element inserts and removes never fold; writes that fold back to the original value leave no patch.
struct PatchRecorder {
    private(set) var patches: [StorePatch] = []
    /// The index of the last patch at each path, so that a write to a path not written before (the common case)
    /// costs one lookup instead of a scan of every earlier patch.
    private var lastIndex: [StoreKeyPath: Int] = [:]

    /// Applies `operations` to `root` in order, all or nothing: the folded patches, or (`root` left as it was) the
    /// first refusal.
    static func applyAll(_ operations: [StoreOperation], to root: inout StoreValue) throws(StoreError) -> [StorePatch] {
        let backup = root
        var recorder = PatchRecorder()
        do throws(StoreError) {
            for operation in operations {
                if let patch = try root.apply(operation) { recorder.record(patch) }
            }
        } catch {
            root = backup
            throw error
        }
        return recorder.patches
    }

    mutating func record(_ patch: StorePatch) {
        guard !Self.isElementShift(patch) else {
            append(patch)
            return
        }
        // One hash of the path: it is recorded as the newest patch's now, and set back below if it folds.
        guard let earlierIndex = lastIndex.updateValue(patches.count, forKey: patch.keyPath) else {
            patches.append(patch)
            return
        }
        let earlier = patches[earlierIndex]
        let blocked =
            Self.isElementShift(earlier)
            || patches[(earlierIndex + 1)...].contains { Self.blocks($0, patch.keyPath) }
        guard !blocked else {
            patches.append(patch)
            return
        }
        if let folded = Self.fold(earlier, patch) {
            patches[earlierIndex] = folded
            lastIndex[patch.keyPath] = earlierIndex
        } else {
            patches.remove(at: earlierIndex)
            reindex()
        }
    }

    private mutating func append(_ patch: StorePatch) {
        lastIndex[patch.keyPath] = patches.count
        patches.append(patch)
    }

    /// After a removal shifted the patches (rare: only when writes fold back to the original value).
    private mutating func reindex() {
        lastIndex.removeAll(keepingCapacity: true)
        for (index, patch) in patches.enumerated() { lastIndex[patch.keyPath] = index }
    }

    /// An insert, or a remove of an array element: both shift later elements.
    private static func isElementShift(_ patch: StorePatch) -> Bool {
        switch patch.op {
        case .insert: true
        case .remove: patch.keyPath.endsInIndex
        default: false
        }
    }

    private static func blocks(_ between: StorePatch, _ path: StoreKeyPath) -> Bool {
        if between.keyPath.overlaps(path) { return true }
        return isElementShift(between) && between.keyPath.parent.isPrefix(of: path)
    }

    /// The single patch equivalent to `earlier` then `later` on the same path, or `nil` when they cancel out.
    private static func fold(_ earlier: StorePatch, _ later: StorePatch) -> StorePatch? {
        let path = earlier.keyPath
        switch (earlier.op, later.op) {
        case (.merge, .merge):
            let earlierNew = earlier.newValue?.objectValue ?? [:]
            var old = earlier.oldValue?.objectValue ?? [:]
            for (key, value) in later.oldValue?.objectValue ?? [:] where earlierNew[key] == nil { old[key] = value }
            let new = earlierNew.merging(later.newValue?.objectValue ?? [:]) { $1 }
            if new.allSatisfy({ old[$0.key] == $0.value }) { return nil }
            return StorePatch(op: .merge, keyPath: path, oldValue: .object(old), newValue: .object(new))
        case (.merge, _):
            // The later patch's `old` is the whole value after the merge: undo the merge on it to get the original.
            var original = later.oldValue?.objectValue ?? [:]
            let mergedOld = earlier.oldValue?.objectValue ?? [:]
            for key in (earlier.newValue?.objectValue ?? [:]).keys { original[key] = mergedOld[key] }
            return full(path, before: .object(original), after: later.newValue)
        case (_, .merge):
            var after = earlier.newValue?.objectValue ?? [:]
            after.merge(later.newValue?.objectValue ?? [:]) { $1 }
            return full(path, before: earlier.oldValue, after: .object(after))
        default:
            return full(path, before: earlier.oldValue, after: later.op == .remove ? nil : later.newValue)
        }
    }

    private static func full(_ path: StoreKeyPath, before: StoreValue?, after: StoreValue?) -> StorePatch? {
        if before == after { return nil }
        guard let after else { return StorePatch(op: .remove, keyPath: path, oldValue: before) }
        return StorePatch(op: .set, keyPath: path, oldValue: before, newValue: after)
    }
}
