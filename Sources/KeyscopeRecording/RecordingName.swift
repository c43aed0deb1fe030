public import KeyscopeCodec

/// The names recordings have in a recordings folder (docs/recording.md "HTTP"): one path segment of
/// `[A-Za-z0-9._-]`, ending in `.kslog`, without `..`.
///
/// ```swift
/// RecordingName.isValid("bug-1234.kslog")        // true
/// RecordingName.isValid("../etc/passwd.kslog")   // false
/// RecordingName.timestamped(.now)                // "recording-20261121-100000.kslog"
/// ```
public enum RecordingName {
    /// The extension every recording has.
    public static let fileExtension = ".kslog"
    /// The longest name accepted, in bytes (file systems take 255).
    public static let maxLength = 200

    /// Whether `name` is a plain recording file name: `[A-Za-z0-9._-]+` ending in `.kslog`, at most ``maxLength``
    /// bytes, without `..` (so never `.` or `..` themselves, nor anything that reads as a path).
    public static func isValid(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard bytes.count > fileExtension.utf8.count, bytes.count <= maxLength, name.hasSuffix(fileExtension),
            !name.contains("..")
        else { return false }
        return bytes.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
                true
            default:
                false
            }
        }
    }

    /// `recording-YYYYMMDD-HHMMSS.kslog` for `time` (UTC), with `-N` before the extension when `suffix` is given.
    public static func timestamped(_ time: LogTime, suffix: Int? = nil) -> String {
        // 2026-11-21T10:00:00.000000Z → 20261121-100000
        let text = time.rfc3339
        let digits = text.prefix(19).filter { $0.isNumber }
        let stamp = digits.prefix(8) + "-" + digits.dropFirst(8)
        return "recording-\(stamp)" + (suffix.map { "-\($0)" } ?? "") + fileExtension
    }
}
