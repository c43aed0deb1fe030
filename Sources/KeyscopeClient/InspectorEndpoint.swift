import Foundation
public import KeyscopeProtocol

/// Where an inspector server is and how to prove the right to talk to it: host, port and token.
///
/// ```swift
/// let endpoint = try InspectorEndpoint(url: "http://127.0.0.1:8081", token: "s3cret")
/// endpoint.webSocketURL        // ws://127.0.0.1:8081/ws?token=s3cret
/// let local = InspectorEndpoint(record: try ServerRecord.find(port: nil))
/// ```
/// The client sends `Host: HOST:PORT` and `Origin: http://HOST:PORT` exactly as the server's security rules
/// expect (docs/protocol.md), with IPv6 hosts in brackets.
public struct InspectorEndpoint: Sendable, Hashable, CustomStringConvertible {
    /// The host as it appears in a URL: a name, an IPv4 address, or an IPv6 address in brackets (`[::1]`).
    public var host: String
    public var port: Int
    /// The server's token; empty when the server was started without one.
    public var token: String
    /// On a fleet dashboard (`keyscope fleet`): the instance to reach, or `*` for all of them (docs/fleet.md);
    /// `nil` for a server of one process.
    public var instance: String?

    /// An endpoint from its parts. An IPv6 address may be given with or without brackets.
    public init(host: String, port: Int, token: String) {
        self.host = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        self.port = port
        self.token = token
    }

    /// The endpoint of a server found through its record (``ServerRecord/find(port:)``).
    public init(record: ServerRecord) {
        // baseURL already maps wildcard hosts to loopback and brackets IPv6.
        let parsed = try? Self.parse(record.baseURL)
        self.init(host: parsed?.host ?? record.host, port: record.port, token: record.token)
    }

    /// An endpoint from `http://HOST:PORT` (a trailing `/` is allowed; `ws://` is accepted too).
    ///
    /// - Throws: ``InspectorClientError`` with code ``InspectorClientError/Code/badEndpoint`` for anything else.
    public init(url: String, token: String) throws(InspectorClientError) {
        let (host, port) = try Self.parse(url)
        self.init(host: host, port: port, token: token)
    }

    /// `ws://HOST:PORT/ws?token=T` (the token percent-encoded), the URL the client connects to.
    public var webSocketURL: String { "ws://\(hostHeader)\(webSocketPath)" }

    /// `http://HOST:PORT`, also the `Origin` the client sends.
    public var origin: String { "http://\(hostHeader)" }

    /// `HOST:PORT`: the `Host` header.
    public var hostHeader: String { "\(host):\(port)" }

    /// The request target of the upgrade: `/ws?token=T`, or `/ws` without a token; with `&instance=ID` on a fleet
    /// dashboard.
    public var webSocketPath: String {
        var items: [String] = []
        if !token.isEmpty { items.append("token=" + Self.percentEncoded(token)) }
        if let instance { items.append("instance=" + Self.percentEncoded(instance)) }
        return items.isEmpty ? "/ws" : "/ws?" + items.joined(separator: "&")
    }

    /// The address to connect to: the host without IPv6 brackets.
    var address: String {
        host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
    }

    /// The URL without the token, for messages: `ws://127.0.0.1:8081/ws` (`…/ws?instance=ID` on a fleet dashboard).
    public var description: String {
        "ws://\(hostHeader)/ws" + (instance.map { "?instance=" + Self.percentEncoded($0) } ?? "")
    }

    private static func parse(_ url: String) throws(InspectorClientError) -> (host: String, port: Int) {
        func bad(_ why: String) -> InspectorClientError {
            .badEndpoint("\"\(url)\" is not a server address of the form http://HOST:PORT: \(why)")
        }
        var rest = Substring(url)
        if let scheme = ["http://", "ws://"].first(where: { rest.lowercased().hasPrefix($0) }) {
            rest = rest.dropFirst(scheme.count)
        } else {
            throw bad("it must start with http://")
        }
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        guard !rest.contains("/"), !rest.contains("?"), !rest.contains("@") else {
            throw bad("give only the scheme, host and port, without a path, query or user")
        }
        let host: Substring
        let portText: Substring
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { throw bad("an IPv6 address needs its closing ]") }
            host = rest[...close]
            let after = rest[rest.index(after: close)...]
            guard after.hasPrefix(":") else { throw bad("the port is missing") }
            portText = after.dropFirst()
        } else {
            guard let colon = rest.lastIndex(of: ":") else { throw bad("the port is missing") }
            host = rest[..<colon]
            portText = rest[rest.index(after: colon)...]
        }
        guard !host.isEmpty, host != "[]" else { throw bad("the host is missing") }
        guard let port = Int(portText), (1...65_535).contains(port), portText.allSatisfy(\.isASCII) else {
            throw bad("the port must be a number from 1 to 65535")
        }
        return (String(host), port)
    }

    /// Percent-encodes everything but the RFC 3986 unreserved characters.
    static func percentEncoded(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF".unicodeScalars)
                out += "%"
                out.unicodeScalars.append(hex[Int(byte >> 4)])
                out.unicodeScalars.append(hex[Int(byte & 0xF)])
            }
        }
        return out
    }
}
