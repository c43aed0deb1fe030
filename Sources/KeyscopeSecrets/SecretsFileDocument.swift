import Foundation

/// What ``FileSecretStore`` keeps in its file: pretty-printed JSON with sorted keys, values in base64, each item's
/// modification time in ISO 8601 (UTC, milliseconds).
///
/// ```json
/// {
///   "app" : "com.shop",
///   "format" : "keyscope-secrets",
///   "services" : {
///     "com.shop.api" : {
///       "token" : { "modified" : "2026-11-21T10:00:00.000Z", "value" : "czNjcmV0" }
///     }
///   },
///   "version" : 1
/// }
/// ```
struct SecretsFileDocument: Codable, Sendable, Equatable {
    struct Entry: Codable, Sendable, Equatable {
        /// The secret's bytes (base64 in the file: JSONEncoder's default for `Data`).
        var value: Data
        var modified: Date?
    }

    static let formatName = "keyscope-secrets"
    static let currentVersion = 1

    var format = Self.formatName
    var version = Self.currentVersion
    var app: String
    /// service → account → entry.
    var services: [String: [String: Entry]] = [:]

    init(app: String) { self.app = app }

    private static let timeStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    func encoded() throws(SecretStoreError) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(date.formatted(Self.timeStyle))
        }
        do {
            return try encoder.encode(self)
        } catch {
            throw SecretStoreError(code: .io, message: "could not encode the secrets of \(app): \(error)")
        }
    }

    /// Decodes and checks a file's bytes; the error names `path`, says what is wrong and that the file is left alone.
    static func decode(_ data: Data, path: String, appID: String) throws(SecretStoreError) -> SecretsFileDocument {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            // Written with milliseconds; a hand-edited time without them is accepted too.
            guard let date = (try? Self.timeStyle.parse(text)) ?? (try? Date.ISO8601FormatStyle().parse(text)) else {
                throw DecodingError.dataCorruptedError(
                    in: container,
                    debugDescription: "\(text.debugDescription) is not an ISO 8601 time"
                )
            }
            return date
        }
        let document: SecretsFileDocument
        do {
            document = try decoder.decode(SecretsFileDocument.self, from: data)
        } catch {
            throw corrupt(path, Self.reason(error))
        }
        guard document.format == formatName else {
            throw corrupt(path, "its format is \(document.format.debugDescription), not \"\(formatName)\"")
        }
        guard document.version == currentVersion else {
            throw corrupt(path, "it is version \(document.version); this Keyscope reads version \(currentVersion)")
        }
        guard document.app == appID else {
            throw corrupt(
                path, "it holds the secrets of \(document.app.debugDescription), not of \(appID.debugDescription)")
        }
        return document
    }

    private static func corrupt(_ path: String, _ reason: String) -> SecretStoreError {
        SecretStoreError(
            code: .io,
            message: "the secrets file \(path) cannot be read: \(reason). Keyscope will not write over it: "
                + "fix it or move it away, then retry"
        )
    }

    /// A short account of a decoding error: what is wrong and where (`services.com.shop.api.token.value`).
    private static func reason(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "it is not JSON (\(error))" }
        func at(_ path: [any CodingKey]) -> String {
            path.isEmpty ? "" : " at \(path.map(\.stringValue).joined(separator: "."))"
        }
        switch error {
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty { return "it is not JSON" }
            return "\(context.debugDescription)\(at(context.codingPath))"
        case .keyNotFound(let key, let context):
            return "\"\(key.stringValue)\" is missing\(at(context.codingPath))"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "\(context.debugDescription)\(at(context.codingPath))"
        @unknown default:
            return "\(error)"
        }
    }
}
