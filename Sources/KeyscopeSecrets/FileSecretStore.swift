public import Foundation
import Synchronization

/// Secrets in one private JSON file per app, for headless servers that have no keyring:
/// `<directory>/<appID>.secrets.json`.
///
/// ```swift
/// let secrets = try FileSecretStore(directory: URL(fileURLWithPath: "/var/lib/shop"), appID: "com.shop")
/// try secrets.write(Data("s3cret".utf8), service: "com.shop.api", account: "token")
/// let token = try secrets.read(service: "com.shop.api", account: "token")  // Data("s3cret".utf8)
/// ```
///
/// - The file has mode 0600; a directory the store creates has mode 0700 (an existing one is left as it is).
///   The values are base64, not encrypted: the file is as safe as the account that owns it.
/// - Every write replaces the file atomically (a temporary file, fsync, rename, fsync of the directory), so a crash
///   leaves the old file or the new one. Writers in several processes take a `flock` on the directory around their
///   read-modify-write, so none loses another's write.
/// - Each call looks at the file first and reads it again when it changed (inode, size or times), so what another
///   process wrote is seen at once.
/// - A file that does not parse is reported (an `io` error naming it) and never written over: fix it or move it
///   away.
/// - Each item keeps the time of its last write (``SecretItem/modified``).
public final class FileSecretStore: SecretStore {
    public let backendName = "file"
    public let appID: String
    /// The file that holds this app's secrets: `<directory>/<appID>.secrets.json`.
    public let fileURL: URL

    private struct Loaded {
        /// `nil`: there was no file.
        var stamp: FileStamp?
        var document: SecretsFileDocument
    }

    private let path: String
    private let directoryPath: String
    /// The last document read or written and the stamp of its file; also what serialises this instance's calls.
    private let cache = Mutex<Loaded?>(nil)

    /// Opens (without reading yet) the secrets of `appID` in `directory`, creating the directory (mode 0700) when
    /// it is missing.
    ///
    /// - Throws: `badName` when `appID` cannot name a file (empty, control characters, `/`); `io` when the
    ///   directory cannot be created.
    public init(directory: URL, appID: String) throws(SecretStoreError) {
        try SecretName.checkAppID(appID)
        self.appID = appID
        let directory = directory.standardizedFileURL
        self.directoryPath = directory.path
        self.fileURL = directory.appendingPathComponent(appID + ".secrets.json", isDirectory: false)
        self.path = fileURL.path
        try SecretFiles.makeDirectory(directoryPath)
    }

    public func services() throws(SecretStoreError) -> [String] {
        try cache.withLock { cache throws(SecretStoreError) in
            try current(&cache).services.filter { !$0.value.isEmpty }.keys.sorted()
        }
    }

    public func items(service: String) throws(SecretStoreError) -> [SecretItem] {
        try SecretName.check(service, "service")
        let entries = try cache.withLock { cache throws(SecretStoreError) in
            try current(&cache).services[service] ?? [:]
        }
        return entries.sorted { $0.key < $1.key }.map { account, entry in
            SecretItem(service: service, account: account, value: entry.value, modified: entry.modified)
        }
    }

    public func read(service: String, account: String) throws(SecretStoreError) -> Data? {
        try SecretName.check(service, "service")
        try SecretName.check(account, "account")
        return try cache.withLock { cache throws(SecretStoreError) in
            try current(&cache).services[service]?[account]?.value
        }
    }

    public func write(_ value: Data, service: String, account: String) throws(SecretStoreError) {
        try SecretName.check(service, "service")
        try SecretName.check(account, "account")
        try change { document in
            document.services[service, default: [:]][account] = .init(value: value, modified: Date())
            return true
        }
    }

    @discardableResult
    public func delete(service: String, account: String) throws(SecretStoreError) -> Bool {
        try SecretName.check(service, "service")
        try SecretName.check(account, "account")
        return try change { document in
            guard document.services[service]?.removeValue(forKey: account) != nil else { return false }
            if document.services[service]?.isEmpty == true { document.services[service] = nil }
            return true
        }
    }

    /// The file's document, from the cache when the file has not changed since it was read or written.
    private func current(_ cache: inout Loaded?) throws(SecretStoreError) -> SecretsFileDocument {
        let stamp = try SecretFiles.stamp(path)
        if let loaded = cache, loaded.stamp == stamp { return loaded.document }
        cache = nil
        guard let (data, readStamp) = try SecretFiles.contents(path) else {
            cache = Loaded(stamp: nil, document: SecretsFileDocument(app: appID))
            return SecretsFileDocument(app: appID)
        }
        let document = try SecretsFileDocument.decode(data, path: path, appID: appID)
        cache = Loaded(stamp: readStamp, document: document)
        return document
    }

    /// Applies `edit` to the newest document under the directory lock and writes the result when `edit` returns
    /// `true`; returns what `edit` returned. A file that does not parse stops this before anything is written.
    @discardableResult
    private func change(_ edit: (inout SecretsFileDocument) -> Bool) throws(SecretStoreError) -> Bool {
        try cache.withLock { cache throws(SecretStoreError) in
            try SecretFiles.withLock(on: directoryPath) { () throws(SecretStoreError) -> Bool in
                var document = try current(&cache)
                guard edit(&document) else { return false }
                cache = nil
                try SecretFiles.replace(path, with: try document.encoded())
                if let stamp = try SecretFiles.stamp(path) { cache = Loaded(stamp: stamp, document: document) }
                return true
            }
        }
    }
}
