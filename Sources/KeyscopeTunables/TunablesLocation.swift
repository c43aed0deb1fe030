public import Foundation

/// Where the writable copy of the tunables lives when the service does not say.
///
/// ```swift
/// let url = TunablesLocation.defaultFileURL(appName: "shop")
/// // Linux: $XDG_DATA_HOME/shop/live-constants.json, or ~/.local/share/shop/live-constants.json
/// // Apple: ~/Library/Application Support/shop/live-constants.json (inside the container when sandboxed)
/// ```
public enum TunablesLocation {
    /// The name of the values file: `live-constants.json`.
    public static let fileName = "live-constants.json"

    /// The name of the schema file that sits beside the defaults: `live-constants.schema.json`.
    public static let schemaFileName = "live-constants.schema.json"

    /// The default writable copy for `appName`, in the user's data folder (see the type's documentation).
    /// `environment` is read for `XDG_DATA_HOME` and `HOME` on Linux (a relative `XDG_DATA_HOME` is ignored, as the
    /// XDG specification says).
    public static func defaultFileURL(
        appName: String, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> URL {
        dataDirectory(environment: environment)
            .appendingPathComponent(appName, isDirectory: true)
            .appendingPathComponent(fileName, isDirectory: false)
    }

    /// The schema file that belongs beside a values file: `live-constants.json` → `live-constants.schema.json`,
    /// `defaults.json` → `defaults.schema.json`.
    public static func schemaURL(besideValuesFile url: URL) -> URL {
        let base = url.pathExtension == "json" ? url.deletingPathExtension().lastPathComponent : url.lastPathComponent
        return url.deletingLastPathComponent().appendingPathComponent(base + ".schema.json", isDirectory: false)
    }

    private static func dataDirectory(environment: [String: String]) -> URL {
        #if canImport(Darwin)
        if let support = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first {
            return support
        }
        #endif
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg, isDirectory: true)
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return URL(fileURLWithPath: home, isDirectory: true)
            .appendingPathComponent(".local", isDirectory: true)
            .appendingPathComponent("share", isDirectory: true)
    }
}
