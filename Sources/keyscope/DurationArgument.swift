import ArgumentParser
import Foundation

/// A length of time on the command line: a number of seconds, or a number with `ms`, `s`, `m` or `h`, such as
/// `30s`, `1.5m`, `1h` or `250ms`. Always more than zero.
struct DurationArgument: ExpressibleByArgument, Sendable, Hashable {
    let duration: Duration

    init?(argument: String) {
        let text = argument.trimmingCharacters(in: .whitespaces).lowercased()
        let number = text.prefix { ($0.isASCII && $0.isNumber) || $0 == "." }
        guard !number.isEmpty, number.filter({ $0 == "." }).count <= 1, number != ".",
            let value = Double(number), value.isFinite
        else { return nil }
        let unit = text.dropFirst(number.count).trimmingCharacters(in: .whitespaces)
        let seconds: Double
        switch unit {
        case "ms": seconds = value / 1000
        case "", "s", "sec": seconds = value
        case "m", "min": seconds = value * 60
        case "h": seconds = value * 3600
        default: return nil
        }
        // Whole milliseconds, at most a year: more would be a typo.
        let milliseconds = (seconds * 1000).rounded()
        guard milliseconds >= 1, milliseconds <= 365 * 24 * 3600 * 1000 else { return nil }
        duration = .milliseconds(Int64(milliseconds))
    }
}
