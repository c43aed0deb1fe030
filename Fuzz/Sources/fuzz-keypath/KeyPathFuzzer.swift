import FuzzSupport
import KeyscopeCore

/// `StoreKeyPath(parsing:)` on any text (the bytes as UTF-8, invalid sequences replaced). Properties (docs/store.md
/// "Key paths"):
/// - a path that parses prints a canonical form that parses to the same segments and prints itself again;
/// - its JSON string (`appendJSONString`) is the core's JSON of that canonical text;
/// - a path that fails names its text and a column from 1 to one past the end, and the text before that column is
///   the beginning of a valid path: alone, it parses or fails only one past its end;
/// - a literal never traps, and an invalid literal prints the text it was given.
@main
enum KeyPathFuzzer {
    static func main() {
        FuzzDriver.run { bytes in check(String(decoding: bytes, as: UTF8.self)) }
    }

    static func check(_ text: String) {
        let literal = StoreKeyPath(stringLiteral: text)
        do {
            let path = try StoreKeyPath(parsing: text)
            FuzzCheck.expect(literal == path, "the literal of \(text.debugDescription) differs from its parse")
            checkCanonical(path, text)
        } catch {
            FuzzCheck.expect(literal.parseError == error, "the literal kept another error than parsing gave")
            FuzzCheck.expect(literal.description == text, "an invalid literal prints \(literal.description)")
            checkError(error, text)
        }
    }

    static func checkCanonical(_ path: StoreKeyPath, _ text: String) {
        let canonical = path.description
        let again = FuzzCheck.success("parsing the canonical form \(canonical.debugDescription)") {
            try StoreKeyPath(parsing: canonical)
        }
        FuzzCheck.expect(
            again.segments == path.segments,
            "\(text.debugDescription) -> \(canonical.debugDescription) -> \(again.segments), not \(path.segments)")
        FuzzCheck.expect(again.description == canonical, "the canonical form is not a fixed point")
        let json = JSONBuffer.withScratch { buffer in
            path.appendJSONString(to: &buffer)
            return buffer.bytes
        }
        FuzzCheck.expect(
            json == StoreValue.string(canonical).jsonBytes(),
            "appendJSONString gave \(String(decoding: json, as: UTF8.self))")
    }

    static func checkError(_ error: KeyPathParseError, _ text: String) {
        let scalars = Array(text.unicodeScalars)
        FuzzCheck.expect(error.path == text, "the error names \(error.path.debugDescription)")
        FuzzCheck.expect(
            (1...scalars.count + 1).contains(error.column),
            "column \(error.column) outside 1...\(scalars.count + 1) in \(text.debugDescription)")
        var prefix = String.UnicodeScalarView()
        prefix.append(contentsOf: scalars[..<(error.column - 1)])
        let start = String(prefix)
        do {
            _ = try StoreKeyPath(parsing: start)
        } catch let early {
            FuzzCheck.expect(
                early.column == error.column,
                "\(text.debugDescription) fails at column \(error.column), but its beginning "
                    + "\(start.debugDescription) fails earlier, at column \(early.column)")
        }
    }
}
