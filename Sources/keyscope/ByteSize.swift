import ArgumentParser
import Foundation

/// A size on the command line: bytes, or a number with `KiB`, `MiB` (also `K`, `M`, `KB`, `MB`, all powers of
/// 1024), such as `16KiB` or `4MiB`.
struct ByteSize: ExpressibleByArgument, Sendable, Hashable, CustomStringConvertible {
    let bytes: Int

    init(bytes: Int) { self.bytes = bytes }

    init?(argument: String) {
        let text = argument.trimmingCharacters(in: .whitespaces)
        let digits = text.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, let number = Int(digits) else { return nil }
        let unit = text.dropFirst(digits.count).trimmingCharacters(in: .whitespaces).lowercased()
        let multiplier: Int
        switch unit {
        case "", "b": multiplier = 1
        case "k", "kb", "kib": multiplier = 1 << 10
        case "m", "mb", "mib": multiplier = 1 << 20
        default: return nil
        }
        let (product, overflow) = number.multipliedReportingOverflow(by: multiplier)
        guard !overflow else { return nil }
        bytes = product
    }

    var description: String {
        if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20)MiB" }
        if bytes >= 1 << 10, bytes % (1 << 10) == 0 { return "\(bytes >> 10)KiB" }
        return "\(bytes)"
    }

    var defaultValueDescription: String { description }
}
