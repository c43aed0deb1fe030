import Foundation
import KeyscopeCore
import KeyscopeTunables

/// The demo shop's tunable constants: what `keyscope serve --demo` serves at `/tune` and in the Tunables panel,
/// unless `--tunables FILE` names others.
///
/// The "bundled" defaults and schema are written into `<directory>/bundle/` at each start (as an app ships them in
/// its bundle), and the writable copy sits in `directory`, where it keeps its edits across restarts
/// (``DemoStateFolder``). The copy of another `--tunables FILE` lives in a folder of its own, named by that file.
///
/// ```swift
/// let tunables = try DemoTunables.open(in: directory)         // the demo's own
/// let custom = try DemoTunables.open(in: directory, defaults: URL(fileURLWithPath: "live-constants.json"))
/// ```
enum DemoTunables {
    /// Opens the tunables: `defaults` (with `live-constants.schema.json` beside it, when there is one), its writable
    /// copy in ``DemoStateFolder/customTunables(in:defaults:)``; or the demo's own written to `<directory>/bundle/`,
    /// its writable copy `<directory>/live-constants.json`.
    static func open(in directory: URL, defaults: URL? = nil, registry: StoreRegistry = .shared) throws -> Tunables {
        let defaultsURL: URL
        let copyFolder: URL
        if let defaults {
            defaultsURL = defaults
            copyFolder = DemoStateFolder.customTunables(in: directory, defaults: defaults)
            try FileManager.default.createDirectory(at: copyFolder, withIntermediateDirectories: true)
        } else {
            defaultsURL = try writeBundle(in: directory.appendingPathComponent("bundle", isDirectory: true))
            copyFolder = directory
        }
        return try Tunables(
            defaultsURL: defaultsURL, fileURL: copyFolder.appendingPathComponent(TunablesLocation.fileName),
            registry: registry)
    }

    /// Writes the demo's defaults and schema, as an app's bundle would hold them; returns the defaults' URL.
    private static func writeBundle(in bundle: URL) throws -> URL {
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        let defaultsURL = bundle.appendingPathComponent(TunablesLocation.fileName)
        try AtomicFile.write(Data(defaultsJSON.utf8), to: defaultsURL)
        try AtomicFile.write(
            Data(schemaJSON.utf8), to: TunablesLocation.schemaURL(besideValuesFile: defaultsURL))
        return defaultsURL
    }

    /// One of each kind of control: ranged integers and numbers, a color, a bool, options, free text and a URL.
    static let defaultsJSON = """
        {
          "accent_color": {"$color": "#30D158"},
          "animation_speed": 1.0,
          "checkout_mode": "standard",
          "corner_radius": 8.0,
          "max_cart_items": 20,
          "show_badges": true,
          "support_url": {"$url": "https://support.example.com/shop"},
          "toolbar_height": 44,
          "welcome_text": "Welcome back!"
        }

        """

    static let schemaJSON = """
        {
          "accent_color": {"type": "color", "group": "Theme", "description": "Buttons, links and the cart badge"},
          "animation_speed": {"type": "number", "min": 0.25, "max": 4.0, "step": 0.25, "group": "Motion",
            "description": "Multiplier for every animation's speed"},
          "checkout_mode": {"type": "string", "options": ["standard", "express", "guest"], "group": "Checkout",
            "description": "Which checkout flow new sessions get"},
          "corner_radius": {"type": "number", "min": 0.0, "max": 24.0, "step": 0.5, "group": "Layout",
            "description": "Corner radius of cards and buttons, in points"},
          "max_cart_items": {"type": "integer", "min": 1, "max": 99, "group": "Checkout",
            "description": "Items a cart may hold"},
          "show_badges": {"type": "bool", "group": "Theme", "description": "Show counts on the tab bar"},
          "support_url": {"type": "url", "group": "Links", "description": "Where Help sends shoppers"},
          "toolbar_height": {"type": "integer", "min": 24, "max": 120, "step": 4, "group": "Layout",
            "description": "Height of the top toolbar, in points"},
          "welcome_text": {"type": "string", "group": "Copy", "description": "The home screen's greeting"}
        }

        """
}
