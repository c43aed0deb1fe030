import Foundation

/// The package's own folders (`Public/`, `fixtures/recordings/`) that `keyscope serve` uses by default.
enum PackageFolder {
    /// `./<relative>` when the current directory is a Keyscope checkout (it holds `<relative>/<marker>`), else
    /// `<relative>` in the package this binary was built from; `nil` when neither exists.
    static func find(_ relative: String, marker: String) -> URL? {
        let local = URL(fileURLWithPath: relative, isDirectory: true)
        if FileManager.default.fileExists(atPath: local.appendingPathComponent(marker).path) { return local }
        // This file is Sources/keyscope/PackageFolder.swift: three levels below the package's root.
        let built = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(relative, isDirectory: true)
        return FileManager.default.fileExists(atPath: built.path) ? built : nil
    }
}
