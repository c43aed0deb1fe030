import KeyscopeInspector
import KeyscopeProtocol

/// The version `keyscope --version` prints.
enum KeyscopeVersion {
    /// The package's release, written down once in ``KeyscopeInspector/InspectorProtocol/packageVersion``.
    static let current = InspectorProtocol.packageVersion
}
