import Foundation
import KeyscopeCore

/// The tunables file that `tune pull` writes and `tune watch` reads: one JSON object, key → value (docs/store.md).
///
/// ```swift
/// let file = TunablesFile(path: "live-constants.json")
/// try file.write(["toolbar_height": 64])          // pretty, sorted keys, replaced atomically
/// let values = try file.parse(try file.read())     // ["toolbar_height": 64]
/// ```
struct TunablesFile {
    /// The default file name, in the current directory.
    static let defaultName = "live-constants.json"

    let url: URL

    init(path: String) {
        url = URL(fileURLWithPath: path)
    }

    /// The path as given, for messages.
    var path: String { url.relativePath }

    /// The bytes `values` are written as: pretty-printed JSON with sorted keys and a final newline, so that the
    /// same values always give the same bytes.
    static func contents(_ values: [String: StoreValue]) -> Data {
        StoreValue.object(values).jsonData(pretty: true)
    }

    /// Replaces the file with `values` atomically (a reader never sees half a file).
    func write(_ values: [String: StoreValue]) throws(CommandFailure) {
        do {
            try AtomicFile.write(Self.contents(values), to: url)
        } catch {
            throw CommandFailure("could not write \(path): \(error.message)")
        }
    }

    /// The file's bytes; `nil` when it does not exist.
    func read() throws(CommandFailure) -> Data? {
        do {
            return try Data(contentsOf: url)
        } catch let error as CocoaError where error.code == .fileReadNoSuchFile {
            return nil
        } catch {
            throw CommandFailure("could not read \(path): \(error.localizedDescription)")
        }
    }

    /// The tunables in `data`: a JSON object.
    func parse(_ data: Data) throws(CommandFailure) -> [String: StoreValue] {
        let value: StoreValue
        do {
            value = try StoreValue(jsonData: data)
        } catch {
            throw CommandFailure("\(path) is not valid JSON: \(error)")
        }
        guard case .object(let values) = value else {
            throw CommandFailure(
                "\(path) must hold a JSON object of tunables ({\"KEY\": VALUE, …}), not \(value.typeName)")
        }
        return values
    }
}
