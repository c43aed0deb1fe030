import Foundation

/// A store in one JSON file (`{"version", "root"}`, pretty-printed, sorted keys), replaced atomically on save.
struct FilePersistence: PersistenceDriver {
    let url: URL

    func load() throws(StoreError) -> PersistedState? {
        AtomicFile.removeStaleTemporaries(of: url)
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            if !FileManager.default.fileExists(atPath: url.path) { return nil }
            throw StoreError(code: .persistence, message: "could not read \(url.path): \(error)")
        }
        let document: StoreValue
        do {
            // The document wraps the root in one more object.
            document = try StoreValue(jsonData: data, maxDepth: StoreLimits.maxDepth + 1)
        } catch {
            throw StoreError(
                code: .persistence,
                message: "\(url.path) does not parse: \(error) (a store nests at most \(StoreLimits.maxDepth) levels, "
                    + "one more with the file's {\"version\", \"root\"} wrapping)")
        }
        return try PersistedState(document: document, source: url.path)
    }

    func save(_ state: PersistedState) throws(StoreError) {
        do {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            throw StoreError(code: .persistence, message: "could not create the folder of \(url.path): \(error)")
        }
        try AtomicFile.write(state.document.jsonData(pretty: true), to: url)
    }
}
