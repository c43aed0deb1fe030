public import Foundation

/// Where golden files come from and whether they are being rewritten.
///
/// ```
/// $ KEYSCOPE_UPDATE_GOLDEN=1 swift test --filter CheckoutReplayTests   # writes the goldens, records an issue each
/// $ swift test --filter CheckoutReplayTests                            # compares with them
/// ```
public enum GoldenFiles {
    /// The environment variable that, set to `1`, makes golden checks write the golden files instead.
    public static let updateVariable = "KEYSCOPE_UPDATE_GOLDEN"

    /// Whether `KEYSCOPE_UPDATE_GOLDEN=1` is set.
    public static var updateRequested: Bool {
        ProcessInfo.processInfo.environment[updateVariable] == "1"
    }

    /// A file next to the calling test's source file: `GoldenFiles.url("golden/checkout.json")` in
    /// `Tests/AppTests/CheckoutTests.swift` is `Tests/AppTests/golden/checkout.json`.
    public static func url(_ relativePath: String, besides filePath: String = #filePath) -> URL {
        URL(fileURLWithPath: filePath).deletingLastPathComponent().appendingPathComponent(relativePath)
    }
}
