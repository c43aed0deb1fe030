import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension RecordingError.Code {
    /// A mute pattern that cannot be used: it does not parse, is empty, or has a literal index.
    public static let badMutePattern = RecordingError.Code(rawValue: "bad_mute_pattern")
    /// A recording cannot start within its byte bound (its header alone is larger).
    public static let tooLarge = RecordingError.Code(rawValue: "too_large")
}

extension RecordingError {
    /// A ``Code/badMutePattern`` error about `pattern`.
    static func mutePattern(_ pattern: String, _ reason: String) -> RecordingError {
        RecordingError(.badMutePattern, line: nil, "mute pattern \"\(pattern)\": \(reason)")
    }

    /// An ``Code/io`` error for `action` with the system's reason (`errno`).
    static func system(_ action: String, errno code: Int32 = errno) -> RecordingError {
        RecordingError(.io, line: nil, "could not \(action): \(String(cString: strerror(code)))")
    }
}
