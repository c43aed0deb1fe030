/// The DNS-rebinding and cross-site defences of docs/protocol.md: which `Host` and `Origin` headers a request may carry.
///
/// ```swift
/// let policy = HostPolicy(port: 8081, extraHosts: ["devbox.local"], extraOrigins: [])
/// policy.checkHost(["localhost:8081"])          // .allowed
/// policy.checkHost(["127.1:8081"])              // .forbidden("…")
/// policy.allowsOrigin("http://127.0.0.1:8081")  // true
/// ```
/// Names compare without regard to ASCII case; nothing is resolved or normalised (`127.1`, `0x7f.1`, `localhost.`
/// and `localhost6` are simply not on the list).
package struct HostPolicy: Sendable, Hashable {
    package enum Verdict: Sendable, Hashable {
        case allowed
        /// 403: the name or port is not this server's.
        case forbidden(String)
        /// 400: the header cannot be judged (repeated).
        case malformed(String)
    }

    /// The port the server listens on.
    package let port: Int
    /// Lower-cased names (IPv6 literals in brackets).
    package let hosts: Set<String>
    /// Exact origins accepted besides `http://HOST:PORT`.
    package let extraOrigins: Set<String>

    package static let loopbackHosts = ["localhost", "127.0.0.1", "[::1]"]

    /// Whether an address to listen on is a loopback address or name (`127.x.y.z`, `::1`, `[::1]`, `localhost`).
    package static func isLoopback(_ host: String) -> Bool {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        return bare == "localhost" || bare == "::1" || bare.hasPrefix("127.")
    }

    package init(port: Int, extraHosts: [String], extraOrigins: [String]) {
        self.port = port
        self.hosts = Set((Self.loopbackHosts + extraHosts).map { $0.lowercased() })
        self.extraOrigins = Set(extraOrigins)
    }

    /// Judges the request's `Host` header values (one element per header line).
    package func checkHost(_ values: [String]) -> Verdict {
        guard let value = values.first else { return .forbidden("the request has no Host header") }
        guard values.count == 1 else { return .malformed("the request has \(values.count) Host headers; send one") }
        guard let (name, port) = Self.split(authority: value) else {
            return .forbidden("Host \"\(value)\" is not a name with an optional port")
        }
        guard hosts.contains(name.lowercased()) else {
            return .forbidden(
                "Host \"\(value)\" is not allowed; use localhost, 127.0.0.1 or [::1] (or start the server with "
                    + "--allow-host NAME)")
        }
        if let port, port != self.port {
            return .forbidden("Host \"\(value)\" names port \(port), but this server listens on \(self.port)")
        }
        return .allowed
    }

    /// Whether an `Origin` value is this server's own page (or one given with `--allow-origin`).
    package func allowsOrigin(_ origin: String) -> Bool {
        if extraOrigins.contains(origin) { return true }
        guard origin.hasPrefix("http://") else { return false }
        guard let (name, port) = Self.split(authority: String(origin.dropFirst("http://".count))) else { return false }
        return hosts.contains(name.lowercased()) && (port ?? 80) == self.port
    }

    /// `name[:port]` or `[v6]:port` into its parts; `nil` when it has other characters (a path, userinfo, spaces…)
    /// or a port that is not 1 to 5 digits.
    package static func split(authority: String) -> (name: String, port: Int?)? {
        let bytes = Array(authority.utf8)
        guard !bytes.isEmpty else { return nil }
        var nameEnd = bytes.count
        if bytes[0] == UInt8(ascii: "[") {
            guard let close = bytes.firstIndex(of: UInt8(ascii: "]")) else { return nil }
            nameEnd = close + 1
            guard nameEnd == bytes.count || bytes[nameEnd] == UInt8(ascii: ":") else { return nil }
        } else if let colon = bytes.firstIndex(of: UInt8(ascii: ":")) {
            nameEnd = colon
        }
        let name = bytes[..<nameEnd]
        let allowedInName = { (byte: UInt8) -> Bool in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "_"),
                UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: ":"):
                true
            default: false
            }
        }
        guard !name.isEmpty, name.allSatisfy(allowedInName) else { return nil }
        guard nameEnd < bytes.count else { return (String(decoding: name, as: UTF8.self), nil) }
        let digits = bytes[(nameEnd + 1)...]
        guard (1...5).contains(digits.count),
            digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
            let port = Int(String(decoding: digits, as: UTF8.self))
        else { return nil }
        return (String(decoding: name, as: UTF8.self), port)
    }
}
