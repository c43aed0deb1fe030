public import Foundation
public import KeyscopeCore

/// The package's shared test vectors: the files under `fixtures/` at the package root.
///
/// The folder is found by walking up from this source file to the directory that holds both `Package.swift` and
/// `fixtures/`, so tests find it from any working directory. Set the environment variable `KEYSCOPE_FIXTURES` to a
/// folder to use that one instead (an installed copy, or vectors under review).
///
/// ```swift
/// let cases = try Fixtures.json("values/valid.json")           // strictly parsed, as a StoreValue
/// let raw = try Fixtures.data("values/invalid-bytes.json")      // the bytes, for a decoder of your own
/// let folder = Fixtures.url("values")                           // file:///…/fixtures/values
/// ```
public enum Fixtures {
    /// The environment variable that, when set and not empty, replaces the package's `fixtures/` folder.
    public static let environmentVariable = "KEYSCOPE_FIXTURES"

    /// The fixtures folder: `$KEYSCOPE_FIXTURES` if set, otherwise the package's `fixtures/`.
    public static var root: URL {
        if let override = ProcessInfo.processInfo.environment[environmentVariable], !override.isEmpty {
            return URL(fileURLWithPath: override, isDirectory: true)
        }
        return packageFixtures
    }

    /// The file or folder at `relativePath` below ``root``, such as `"values/valid.json"`.
    public static func url(_ relativePath: String) -> URL {
        root.appendingPathComponent(relativePath)
    }

    /// The contents of the fixture at `relativePath`.
    ///
    /// - Throws: Foundation's file error when the file is missing or unreadable.
    public static func data(_ relativePath: String) throws -> Data {
        try Data(contentsOf: url(relativePath))
    }

    /// The fixture at `relativePath`, read with the strict StoreValue JSON reader of docs/store.md.
    ///
    /// - Throws: Foundation's file error, or ``StoreValueJSONError`` when the file is not valid StoreValue JSON.
    public static func json(_ relativePath: String) throws -> StoreValue {
        try StoreValue(jsonData: data(relativePath))
    }

    /// `fixtures/` next to the closest `Package.swift` above this source file.
    private static let packageFixtures: URL = {
        let fileManager = FileManager.default
        var directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while directory.path != "/" && !directory.path.isEmpty {
            let candidate = directory.appendingPathComponent("fixtures", isDirectory: true)
            var isDirectory: ObjCBool = false
            if fileManager.fileExists(atPath: directory.appendingPathComponent("Package.swift").path),
                fileManager.fileExists(atPath: candidate.path, isDirectory: &isDirectory), isDirectory.boolValue
            {
                return candidate
            }
            directory = directory.deletingLastPathComponent()
        }
        // Not built from a checkout: fall back to the working directory, where `swift test` runs.
        return URL(fileURLWithPath: fileManager.currentDirectoryPath, isDirectory: true)
            .appendingPathComponent("fixtures", isDirectory: true)
    }()
}
