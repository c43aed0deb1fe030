import KeyscopeLws

/// How the conformance echo listens and its limits: the inspector's defaults (16 KiB of headers, 10 s to send them,
/// 4 MiB messages), on loopback only.
struct EchoOptions: Sendable, Hashable {
    /// The address to listen on: `127.0.0.1`, `::1` or `localhost` (``EchoServer/start()`` refuses others).
    var host = "127.0.0.1"
    /// The TCP port; 0 picks any free port.
    var port = 9001
    /// The most bytes a message (all its fragments) may have (close 1009 beyond).
    var maxMessageBytes = 4 << 20
    /// The most bytes of request line and headers an upgrade may have.
    var maxHeaderBytes = 16 << 10
    /// How long a new connection may take to send its request headers, in seconds.
    var headerTimeoutSeconds = 10

    /// Why these options cannot be served, or `nil`.
    var problem: String? {
        guard HostPolicy.isLoopback(host) else {
            return "the conformance echo listens on loopback only (127.0.0.1, ::1 or localhost), not on \(host)"
        }
        guard (0...65_535).contains(port) else {
            return "the port must be 0 (any free port) or 1 to 65535, not \(port)"
        }
        guard maxMessageBytes >= 1024 else {
            return "the message limit must be at least 1024 bytes, not \(maxMessageBytes)"
        }
        return nil
    }

    /// `ws://HOST:PORT/` (IPv6 addresses in brackets).
    func url(port: Int) -> String {
        let name = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        return "ws://\(name):\(port)/"
    }
}
