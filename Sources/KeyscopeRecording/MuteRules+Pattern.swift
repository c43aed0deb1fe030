import KeyscopeCore

/// A key path pattern whose values a recording leaves out (docs/recording.md "Muting"): a key path (docs/store.md)
/// whose segments may be `*`, which matches any one name or index.
///
/// ```swift
/// let card = try MutePattern(parsing: "user.payment.card")
/// let tokens = try MutePattern(parsing: "sessions[*].token")    // `[*]` and `.*` are the same segment
/// try MutePattern(parsing: "items[0].price")                     // refused: a literal index
/// ```
/// A `*` segment is always the wildcard, however it is spelled (`*`, `["*"]`, `[*]`): a key that really is `*`
/// cannot be muted alone. Literal indexes are refused because an insert or a remove before the element would move
/// another value under the pattern (the masked recording would no longer replay); use `[*]`.
public struct MutePattern: Sendable, Hashable, CustomStringConvertible {
    /// One step of a pattern.
    public enum Segment: Sendable, Hashable {
        /// An object key, matched exactly.
        case key(String)
        /// `*`: any one object key or array index.
        case any

        /// Whether this pattern segment matches the path segment `segment`.
        func matches(_ segment: StoreKeyPath.Segment) -> Bool {
            switch (self, segment) {
            case (.any, _): true
            case (.key(let expected), .key(let key)): expected == key
            case (.key, .index): false
            }
        }
    }

    /// The steps from a store's root; never empty.
    public let segments: [Segment]

    /// A pattern from segments; `nil` when there are none (that would mute a whole store: use
    /// ``MuteRules/stores`` for that).
    public init?(segments: [Segment]) {
        guard !segments.isEmpty else { return nil }
        self.segments = segments
    }

    /// Parses a pattern: a key path as in docs/store.md in which `*` (a name segment) or `[*]` (a bracket segment)
    /// matches any one key or index.
    ///
    /// - Throws: ``RecordingError`` with ``RecordingError/Code/badMutePattern``: the path does not parse (the
    ///   message names the column), the pattern is empty, or it has a literal index.
    public init(parsing text: String) throws(RecordingError) {
        guard !text.isEmpty else {
            throw .mutePattern(text, "an empty pattern would mute a whole store; mute the store instead")
        }
        var segments: [Segment] = []
        for (number, chunk) in Self.chunks(text).enumerated() {
            if number > 0 { segments.append(.any) }
            for segment in try Self.parse(chunk, in: text, first: number == 0) {
                switch segment {
                case .key("*"): segments.append(.any)
                case .key(let key): segments.append(.key(key))
                case .index(let index):
                    throw .mutePattern(
                        text,
                        "the literal index [\(index)] is not allowed (an insert or a remove before it would move "
                            + "another element under the pattern); use [*] to mute every element")
                }
            }
        }
        self.segments = segments
    }

    /// The pattern in key path form, `*` for each wildcard: `sessions.*.token`.
    public var description: String {
        var text = ""
        for segment in segments {
            switch segment {
            case .any:
                text += text.isEmpty ? "*" : ".*"
            case .key(let key):
                let printed = StoreKeyPath(segments: [.key(key)]).description
                text += text.isEmpty || printed.hasPrefix("[") ? printed : "." + printed
            }
        }
        return text
    }

    /// `text` split at each `[*]` outside a quoted key: `a[*].b[*]` gives `a`, `.b`, ``.
    private static func chunks(_ text: String) -> [Substring] {
        var chunks: [Substring] = []
        var start = text.startIndex
        var index = text.startIndex
        var inString = false
        var escaped = false
        while index < text.endIndex {
            let character = text[index]
            if inString {
                if escaped {
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    inString = false
                }
            } else if character == "\"" {
                inString = true
            } else if text[index...].hasPrefix("[*]") {
                chunks.append(text[start..<index])
                index = text.index(index, offsetBy: 3)
                start = index
                continue
            }
            index = text.index(after: index)
        }
        chunks.append(text[start...])
        return chunks
    }

    /// The path segments of one chunk; a chunk after `[*]` goes on with `.name` or a bracket.
    private static func parse(_ chunk: Substring, in text: String, first: Bool) throws(RecordingError)
        -> [StoreKeyPath.Segment]
    {
        if chunk.isEmpty { return [] }
        var path = String(chunk)
        if !first {
            if path.hasPrefix(".") {
                path.removeFirst()
                guard !path.isEmpty else { throw .mutePattern(text, "a name must follow the \".\" after [*]") }
            } else if !path.hasPrefix("[") {
                throw .mutePattern(text, "after [*] comes \".name\" or a bracket, not \"\(path)\"")
            }
        }
        do {
            return try StoreKeyPath(parsing: path).segments
        } catch {
            let place = path == text ? "at column \(error.column)" : "in \"\(path)\" at column \(error.column)"
            throw .mutePattern(text, "it is not a key path (\(place): \(error.reason))")
        }
    }
}
