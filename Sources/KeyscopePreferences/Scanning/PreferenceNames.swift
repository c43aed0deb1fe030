import KeyscopeInspector
import KeyscopeProtocol

/// The naming rules of preference scanning: which container names are usable, which names the configuration's
/// include and exclude lists select, and which keys are the platform's or Keyscope's own.
enum PreferenceNames {
    /// Refuses a suite or service name that cannot name one container safely: empty, with `/` or `..` (a suite is
    /// one file in the preferences folder, and Foundation would follow either out of it), or control characters.
    static func check(_ name: String, source: PreferenceSource) throws(PreferenceSourceError) {
        let what = source == .userDefaults ? "suite name" : "secret service name"
        let problem: String?
        if name.isEmpty {
            problem = "is empty"
        } else if name.contains("/") {
            problem = "contains \"/\""
        } else if name.contains("..") {
            problem = "contains \"..\""
        } else if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            problem = "contains a control character"
        } else {
            problem = nil
        }
        guard let problem else { return }
        throw PreferenceSourceError(
            code: .badName,
            message: "\(what) \(quoted(name)) \(problem): a \(source == .userDefaults ? "suite" : "service") is one "
                + "plain name (like com.shop), never a path")
    }

    /// Whether `name` is selected: matched by `include` (an empty list includes everything) and by no pattern of
    /// `exclude` (which wins).
    static func isSelected(_ name: String, include: [String], exclude: [String]) -> Bool {
        if exclude.contains(where: { matches(name, pattern: $0) }) { return false }
        return include.isEmpty || include.contains { matches(name, pattern: $0) }
    }

    /// The names of `include` that are plain (no `*`): what is shown when discovery is off.
    static func plainNames(_ include: [String]) -> [String] {
        include.filter { !$0.contains("*") }
    }

    /// Whether `name` matches `pattern`, where `*` matches any run of characters (also none).
    static func matches(_ name: String, pattern: String) -> Bool {
        let name = Array(name.unicodeScalars)
        let pattern = Array(pattern.unicodeScalars)
        var n = 0
        var p = 0
        var star: Int?
        var resume = 0
        while n < name.count {
            if p < pattern.count, pattern[p] == "*" {
                star = p
                resume = n
                p += 1
            } else if p < pattern.count, pattern[p] == name[n] {
                p += 1
                n += 1
            } else if let star {
                p = star + 1
                resume += 1
                n = resume
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == "*" { p += 1 }
        return p == pattern.count
    }

    /// Keys that the platform or Keyscope keep in suites: `Apple*`, `NS*`, `com.apple.*`, `keyscope.*`.
    static func isSystemKey(_ key: String) -> Bool {
        key.hasPrefix("Apple") || key.hasPrefix("NS") || key.hasPrefix("com.apple.") || key.hasPrefix("keyscope.")
    }

    /// `name` in quotes, with control characters escaped, for messages.
    static func quoted(_ name: String) -> String {
        var text = "\""
        for scalar in name.unicodeScalars {
            if scalar.properties.generalCategory == .control || scalar == "\"" || scalar == "\\" {
                text += scalar.escaped(asASCII: true)
            } else {
                text.unicodeScalars.append(scalar)
            }
        }
        return text + "\""
    }
}
