import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Maps request paths to files under the public directory, and nothing outside it.
///
/// ```swift
/// let files = try StaticFiles(root: URL(fileURLWithPath: "Public"))
/// files.resolve("/")            // .file(".../Public/index.html", mime: "text/html; charset=utf-8")
/// files.resolve("/../etc/passwd")   // .notFound
/// ```
/// The path (already percent-decoded once by the HTTP parser) is checked segment by segment and never decoded
/// again: an empty, `.` or `..` segment, a segment that starts with a dot, a backslash, a NUL or a `%` (a second
/// encoding layer) means 404. The joined path is then resolved with `realpath`, and the result must still be
/// inside the root (so symlinks out of it are 404) and be a regular file.
struct StaticFiles: Sendable {
    /// The root, resolved (no symlinks), without a trailing slash.
    let root: String

    enum Resolution: Sendable, Hashable {
        case file(path: String, mime: String)
        case notFound
    }

    init?(root: URL) {
        guard let resolved = Self.realPath(root.path) else { return nil }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: resolved, isDirectory: &isDirectory), isDirectory.boolValue else {
            return nil
        }
        self.root = resolved == "/" ? "" : resolved
    }

    /// Whether the root is still a directory (it may be deleted while the server runs).
    var rootExists: Bool {
        var info = stat()
        return stat(root.isEmpty ? "/" : root, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    func resolve(_ requestPath: String) -> Resolution {
        guard requestPath.hasPrefix("/") else { return .notFound }
        var segments = requestPath.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        if segments.last == "" { segments[segments.count - 1] = "index.html" }
        for segment in segments {
            guard !segment.isEmpty, !segment.hasPrefix("."),
                !segment.contains(where: { $0 == "\\" || $0 == "\0" || $0 == "%" })
            else { return .notFound }
        }
        let candidate = root + "/" + segments.joined(separator: "/")
        guard let resolved = Self.realPath(candidate), resolved.hasPrefix(root + "/") else { return .notFound }
        var info = stat()
        guard stat(resolved, &info) == 0 else { return .notFound }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            return resolve(requestPath.hasSuffix("/") ? requestPath + "index.html" : requestPath + "/")
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else { return .notFound }
        return .file(path: resolved, mime: Self.mimeType(of: resolved))
    }

    /// The MIME type by extension; the ones lws lacks (`.mjs`, `.wasm`, `.map`) included.
    static func mimeType(of path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: ".") else { return "application/octet-stream" }
        switch name[name.index(after: dot)...].lowercased() {
        case "html", "htm": return "text/html; charset=utf-8"
        case "css": return "text/css; charset=utf-8"
        case "js", "mjs": return "text/javascript; charset=utf-8"
        case "json", "map": return "application/json"
        case "wasm": return "application/wasm"
        case "svg": return "image/svg+xml"
        case "png": return "image/png"
        case "jpg", "jpeg": return "image/jpeg"
        case "gif": return "image/gif"
        case "webp": return "image/webp"
        case "ico": return "image/x-icon"
        case "woff2": return "font/woff2"
        case "woff": return "font/woff"
        case "txt", "md": return "text/plain; charset=utf-8"
        case "jsonl", "ndjson": return "application/x-ndjson"
        default: return "application/octet-stream"
        }
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
