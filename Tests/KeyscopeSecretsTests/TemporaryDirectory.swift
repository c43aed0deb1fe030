import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A fresh private directory under /tmp (short, so unix socket paths inside it stay under 108 bytes), removed with
/// everything in it when the test is done.
func withTemporaryDirectory<Result>(
    _ name: String = "secrets",
    _ body: (URL) throws -> Result
) throws -> Result {
    let url = try makeTemporaryDirectory(name)
    defer { try? FileManager.default.removeItem(at: url) }
    return try body(url)
}

/// Creates `/tmp/keyscope-<name>-XXXXXX` (mode 0700); the caller removes it.
func makeTemporaryDirectory(_ name: String) throws -> URL {
    var template = Array("/tmp/keyscope-\(name)-XXXXXX".utf8CString)
    guard let made = template.withUnsafeMutableBufferPointer({ $0.baseAddress.flatMap { mkdtemp($0) } }) else {
        throw TestSetupError("could not create a temporary directory in /tmp: \(String(cString: strerror(errno)))")
    }
    return URL(fileURLWithPath: String(cString: made), isDirectory: true)
}

/// A test fixture that could not be set up; the message says what failed and what to do.
struct TestSetupError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The permission bits of `path` (`stat`), or `nil` when it cannot be looked at.
func permissions(_ path: String) -> mode_t? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return info.st_mode & 0o777
}
