import KeyscopeCore

/// `loop-file PATH`: the writer that the kill tests kill -9 at random moments.
///
/// It reads `counter` from the store (0 when absent), then forever: prints `counter + 1` on a line of its own,
/// sets `counter` and `blob` to it in one change, and (unless `--no-flush`) waits until that change is on disk.
/// The line is printed *before* the write, so a file on disk never holds a counter the parent cannot have seen;
/// with flushing, a file holds either the last printed counter or the one before it.
///
/// `blob` is ``blob(for:)``: a few KiB derived from the counter, so that a save is several pages and a torn one
/// would show as a blob that does not match its counter. The process tests compute the same string.
struct LoopCommand {
    let store: KeyValueStore
    let flushEachWrite: Bool

    /// The size of `blob`, in UTF-8 bytes.
    static let blobSize = 6 * 1024

    /// `"<counter>:"` repeated, cut to ``blobSize`` bytes.
    static func blob(for counter: Int64) -> String {
        let unit = "\(counter):"
        let repeated = String(repeating: unit, count: blobSize / unit.utf8.count + 1)
        return String(repeated.utf8.prefix(blobSize))!
    }

    func run() -> Never {
        var counter = store.get("counter")?.integerValue ?? 0
        while true {
            counter += 1
            Output.line(String(counter))
            do {
                try store.apply([.set("counter", .integer(counter)), .set("blob", .string(Self.blob(for: counter)))])
            } catch {
                Output.fail("the store refused counter \(counter): \(error)", code: ExitCode.software)
            }
            if flushEachWrite { store.flush() }
        }
    }
}
