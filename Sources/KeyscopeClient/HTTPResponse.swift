import Foundation
public import KeyscopeCore

/// One HTTP/1.x response, read whole (``HTTPClient``).
///
/// ```swift
/// let response = try client.send(method: "GET", target: "/tune")
/// if response.status == 200 { print(try response.json()) }
/// else if let error = response.error { print(error.code, error.message) }
/// ```
public struct HTTPResponse: Sendable, Hashable {
    /// The status code: 200, 404…
    public let status: Int
    /// The header fields in the order they came, names in lower case.
    public let headers: [Header]
    /// The body (as many bytes as `Content-Length` says, else everything until the server closed).
    public let body: [UInt8]

    /// One header field.
    public struct Header: Sendable, Hashable {
        /// The name, in lower case.
        public let name: String
        /// The value, without the spaces around it.
        public let value: String
    }

    /// The first value of the header `name` (any case).
    public func header(_ name: String) -> String? {
        let lower = name.lowercased()
        return headers.first { $0.name == lower }?.value
    }

    /// The body as JSON (docs/store.md).
    ///
    /// - Throws: ``HTTPClientError/Code/badResponse`` when it is not JSON.
    public func json() throws(HTTPClientError) -> StoreValue {
        do {
            return try StoreValue(jsonBytes: body)
        } catch {
            let start = String(decoding: body.prefix(200), as: UTF8.self)
            throw HTTPClientError(
                .badResponse, "the server answered HTTP \(status) with a body that is not JSON (\(error)): \(start)")
        }
    }

    /// The server's error (`{"error":{"code":…,"message":…}}`) when the status is not 2xx and the body is one.
    public var error: (code: String, message: String)? {
        guard !(200..<300).contains(status), let value = try? StoreValue(jsonBytes: body),
            case .string(let code)? = value["error"]?["code"]
        else { return nil }
        return (code, value["error"]?["message"]?.stringValue ?? "")
    }

    /// Parses a whole response: status line, headers, body.
    ///
    /// - Throws: ``HTTPClientError/Code/badResponse``.
    init(parsing bytes: [UInt8]) throws(HTTPClientError) {
        guard let end = Self.endOfHeaders(bytes) else {
            throw HTTPClientError(.badResponse, "the server closed the connection before it sent a whole response")
        }
        let head = String(decoding: bytes[..<end], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst()
        let parts = statusLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]), (100...999).contains(status)
        else {
            throw HTTPClientError(.badResponse, "the server's answer is not an HTTP/1.x response: \(statusLine)")
        }
        var headers: [Header] = []
        for line in lines where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else {
                throw HTTPClientError(.badResponse, "the server sent a header line without a colon: \(line)")
            }
            headers.append(
                Header(
                    name: line[..<colon].lowercased(),
                    value: line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        var body = Array(bytes[(end + 4)...])
        if let declared = headers.first(where: { $0.name == "content-length" }).flatMap({ Int($0.value) }) {
            guard body.count >= declared else {
                throw HTTPClientError(
                    .badResponse, "the server closed the connection after \(body.count) of \(declared) body bytes")
            }
            body = Array(body.prefix(declared))
        }
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The offset of the `\r\n\r\n` that ends the headers.
    static func endOfHeaders(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4)
        where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index
        }
        return nil
    }

    /// How many bytes the whole response has, once its headers are in and say (`Content-Length`); `nil` before that
    /// or without the header.
    static func expectedLength(_ bytes: [UInt8]) -> Int? {
        guard let end = endOfHeaders(bytes) else { return nil }
        let head = String(decoding: bytes[..<end], as: UTF8.self).lowercased()
        for line in head.components(separatedBy: "\r\n") where line.hasPrefix("content-length:") {
            return Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)).map {
                end + 4 + $0
            }
        }
        return nil
    }
}
