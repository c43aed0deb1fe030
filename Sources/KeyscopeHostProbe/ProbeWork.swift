import Foundation
import KeyscopeCore
import KeyscopeTunables
import Logging

/// The probe's own work, which must go on whatever happens to its inspector: a counter that only grows, printed as
/// `work N`, then saved in the file store (`counter` and a `blob` derived from it, flushed) and in the tunables
/// (`counter`, flushed).
///
/// The line is printed *before* the writes, so no file ever holds a counter the parent has not seen: the store and
/// the tunables hold the last printed counter or the one before it (or, for a file written before a kill, an
/// older one), never a newer one, and never a torn mix.
struct ProbeWork {
    let store: KeyValueStore
    let tunables: Tunables?
    let interval: Duration
    let logger: Logger

    /// The size of `blob`, in UTF-8 bytes: a save is several pages, so a torn one would show.
    static let blobSize = 6 * 1024

    /// `"<counter>:"` repeated, cut to ``blobSize`` bytes (the load tests compute the same string).
    static func blob(for counter: Int64) -> String {
        let unit = "\(counter):"
        return String(String(repeating: unit, count: blobSize / unit.utf8.count + 1).utf8.prefix(blobSize))!
    }

    func run() -> Never {
        var counter = store.get("counter")?.integerValue ?? 0
        while true {
            counter += 1
            ProbeOutput.line("work \(counter)")
            do {
                try store.apply([.set("counter", .integer(counter)), .set("blob", .string(Self.blob(for: counter)))])
            } catch {
                logger.error("the probe's store refused counter \(counter): \(error)")
            }
            store.flush()
            if let tunables {
                do {
                    try tunables.set("counter", .integer(counter))
                    try tunables.flush()
                } catch {
                    logger.error("the probe's tunables refused counter \(counter): \(error)")
                }
            }
            if interval > .zero { Thread.sleep(forTimeInterval: interval / .seconds(1)) }
        }
    }
}
