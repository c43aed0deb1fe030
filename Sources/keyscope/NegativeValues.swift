/// Lets `write` and `tune set` take a negative number as their VALUE as it is typed (`keyscope write app/memory
/// cart.total -5`): ArgumentParser reads `-5` as an unknown option, so such words are moved behind a `--` before
/// parsing, where every word is a positional argument.
///
/// ```swift
/// NegativeValues.rewrite(["write", "app/memory", "cart.total", "-5", "--port", "8081"])
/// // ["write", "app/memory", "cart.total", "--port", "8081", "--", "-5"]
/// ```
enum NegativeValues {
    /// The commands whose positional VALUE may be a negative number.
    static let commands: [[String]] = [["write"], ["tune", "set"]]
    /// Their options that take a value, whose own value is left where it is.
    static let valueOptions: Set<String> = ["--port", "--url", "--token", "--op"]

    /// `arguments` (without the program's name) with the negative numbers of a `write` or `tune set` moved behind
    /// a `--`; unchanged for other commands and when a `--` is already given.
    static func rewrite(_ arguments: [String]) -> [String] {
        guard let command = commands.first(where: { arguments.starts(with: $0) }), !arguments.contains("--") else {
            return arguments
        }
        var kept = Array(command)
        var moved: [String] = []
        for (index, word) in arguments.enumerated().dropFirst(command.count) {
            if isNegativeNumber(word), !valueOptions.contains(arguments[index - 1]) {
                moved.append(word)
            } else {
                kept.append(word)
            }
        }
        return moved.isEmpty ? arguments : kept + ["--"] + moved
    }

    /// `-5`, `-2.5`, `-.5`, `-1e3`: a minus and then a digit or a point and a digit.
    static func isNegativeNumber(_ word: String) -> Bool {
        let rest = word.utf8.dropFirst()
        guard word.utf8.first == UInt8(ascii: "-"), let next = rest.first else { return false }
        if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(next) { return true }
        guard next == UInt8(ascii: "."), let digit = rest.dropFirst().first else { return false }
        return (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit)
    }
}
