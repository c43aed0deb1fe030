import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension RecordingLibrary {
    /// A recording file found in a folder.
    struct Found {
        var url: URL
        var bytes: Int
        var modified: Date
    }

    /// The recordings in `directory`: files with valid names that resolve (symlinks followed) to regular files
    /// directly in `directory`. Nothing when the folder does not exist.
    /// In no particular order (the listing sorts them).
    static func recordings(in directory: URL) -> [(name: String, attributes: Found)] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path),
            let folder = realPath(directory.path)
        else { return [] }
        return names.compactMap { name in
            guard let found = resolved(name, in: directory, folder: folder) else { return nil }
            return (name, found)
        }
    }

    /// The file `name` in `directory`, when it is a regular file once symlinks are resolved and lies directly in
    /// `directory` (itself resolved): a symlink that leads anywhere else is not found.
    static func resolved(_ name: String, in directory: URL) -> Found? {
        guard let folder = realPath(directory.path) else { return nil }
        return resolved(name, in: directory, folder: folder)
    }

    /// ``resolved(_:in:)`` with the folder's real path already known.
    private static func resolved(_ name: String, in directory: URL, folder: String) -> Found? {
        guard RecordingName.isValid(name), let file = realPath(directory.appendingPathComponent(name).path)
        else { return nil }
        let parent = (file as NSString).deletingLastPathComponent
        guard parent == folder else { return nil }
        var info = stat()
        guard stat(file, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        #if canImport(Darwin)
        let seconds = Double(info.st_mtimespec.tv_sec) + Double(info.st_mtimespec.tv_nsec) / 1e9
        #else
        let seconds = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
        #endif
        return Found(
            url: URL(fileURLWithPath: file), bytes: Int(info.st_size), modified: Date(timeIntervalSince1970: seconds))
    }

    /// `realpath(3)`: the absolute path with every symlink, `.` and `..` resolved; `nil` when it does not exist.
    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
