/// A `major.minor.patch` version. A store's major version changing drops its persisted data; minor and patch keep it.
///
/// ```swift
/// let v: SemanticVersion = "1.4.0"
/// v.major     // 1
/// ```
public struct SemanticVersion: Sendable, Hashable, Comparable, CustomStringConvertible, ExpressibleByStringLiteral {
    public var major: Int
    public var minor: Int
    public var patch: Int

    public init(_ major: Int, _ minor: Int = 0, _ patch: Int = 0) {
        self.major = major
        self.minor = minor
        self.patch = patch
    }

    /// Parses `major.minor.patch` (non-negative decimal numbers); `nil` otherwise.
    ///
    /// Note that `SemanticVersion("1.4")` with a literal argument is the literal form (Swift treats `T("…")` as
    /// `"…" as T`), which traps on a bad literal; use `SemanticVersion(parsing:)` to test text.
    public init?(parsing text: String) {
        self.init(text)
    }

    /// Parses `major.minor.patch`; see ``init(parsing:)``.
    public init?(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3,
            let numbers = Optional(
                parts.compactMap { part -> Int? in
                    guard !part.isEmpty, part.allSatisfy(\.isASCIIDigit) else { return nil }
                    return Int(part)
                }), numbers.count == 3
        else { return nil }
        self.init(numbers[0], numbers[1], numbers[2])
    }

    /// A literal must parse; an invalid one is a programmer error caught at its first use.
    public init(stringLiteral value: String) {
        guard let version = SemanticVersion(value) else {
            preconditionFailure("\"\(value)\" is not a major.minor.patch version")
        }
        self = version
    }

    public static let initial = SemanticVersion(1, 0, 0)

    public var description: String { "\(major).\(minor).\(patch)" }

    public static func < (lhs: SemanticVersion, rhs: SemanticVersion) -> Bool {
        (lhs.major, lhs.minor, lhs.patch) < (rhs.major, rhs.minor, rhs.patch)
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
