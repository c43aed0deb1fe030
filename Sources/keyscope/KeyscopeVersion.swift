/// The version of the `keyscope` tool, as `keyscope --version` prints it.
///
/// ```swift
/// print("keyscope \(KeyscopeVersion.current)")   // keyscope 0.1.0
/// ```
enum KeyscopeVersion {
    /// The one place the tool's version is written down.
    static let current = "0.1.0"
}
