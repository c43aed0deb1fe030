public import Foundation

extension ServerOptions {
    /// The dashboard of the Keyscope package this server was built from (its `Public/`, found beside the sources,
    /// as SwiftPM checks the package out), or `nil` when it is not there (a binary copied elsewhere).
    ///
    /// ``Inspector/start(registry:options:hubOptions:features:force:logger:)`` and
    /// `InspectorService` serve it when ``publicDirectory`` is `nil`, so an embedding service's debug build shows the
    /// dashboard without configuration.
    public static var builtInDashboard: URL? {
        // This file is Sources/KeyscopeServer/BuiltInDashboard.swift: three levels below the package's root.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let files = root.appendingPathComponent("Public", isDirectory: true)
        return FileManager.default.fileExists(atPath: files.appendingPathComponent("index.html").path) ? files : nil
    }

    /// These options, with ``publicDirectory`` set to ``builtInDashboard`` when it was `nil`.
    public func servingBuiltInDashboard() -> ServerOptions {
        var options = self
        if options.publicDirectory == nil { options.publicDirectory = Self.builtInDashboard }
        return options
    }
}
