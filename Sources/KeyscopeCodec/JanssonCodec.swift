import CJansson
import KeyscopeCore

/// StoreValues to and from JSON through jansson. (Being built: see issue 3.)
public enum JanssonCodec {
    /// The jansson version this build links, e.g. `2.14`.
    public static var janssonVersion: String { String(cString: jansson_version_str()) }
}
