/// A property every input must keep; a broken one crashes with `message`, so libFuzzer saves the input.
///
/// ```swift
/// FuzzCheck.expect(decoded == value, "decode(encode(v)) != v for \(value)")
/// ```
public enum FuzzCheck {
    /// Crashes with `message` unless `condition` holds.
    public static func expect(
        _ condition: Bool, _ message: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line
    ) {
        if !condition { fatalError("fuzz property broken: \(message())", file: file, line: line) }
    }

    /// The value of `body`, or a crash naming the error when it throws.
    public static func success<T>(
        _ what: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line,
        _ body: () throws -> T
    ) -> T {
        do {
            return try body()
        } catch {
            fatalError("fuzz property broken: \(what()) threw \(error)", file: file, line: line)
        }
    }
}
