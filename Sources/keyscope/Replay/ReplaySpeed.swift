import ArgumentParser
import KeyscopeRecording

/// `--speed`: a factor of the recorded speed (`1`, `2.5`, `10x`, `0.5`) or `max`.
struct ReplaySpeed: ExpressibleByArgument, Sendable, Hashable, CustomStringConvertible {
    /// The pace for ``KeyscopeRecording/StoreReplayer/play(_:pace:onEvent:)``.
    let pace: StoreReplayer.Pace

    init(pace: StoreReplayer.Pace) { self.pace = pace }

    init?(argument: String) {
        let text = argument.lowercased()
        if text == "max" {
            pace = .asFastAsPossible
            return
        }
        let number = text.hasSuffix("x") ? String(text.dropLast()) : text
        guard let factor = Double(number), factor.isFinite, factor > 0 else { return nil }
        pace = .recorded(speed: factor)
    }

    var description: String {
        switch pace {
        case .asFastAsPossible: "max"
        case .recorded(let speed): speed == speed.rounded() ? "\(Int(speed))" : "\(speed)"
        }
    }

    var defaultValueDescription: String { description }
}
