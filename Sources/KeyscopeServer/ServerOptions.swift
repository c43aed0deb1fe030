public import Foundation
import KeyscopeCore
import KeyscopeLws
import KeyscopeProtocol

/// How an ``InspectorServer`` listens, whom it lets in, and its limits. The defaults are the protocol's: loopback,
/// port 8081, a random token, 16 KiB of headers, 4 MiB bodies and messages, 10 s to send the headers; and 256
/// connections (docs/hardening.md lists every limit).
///
/// ```swift
/// var options = ServerOptions()
/// options.port = 0                       // any free port; read it from `server.port` once started
/// options.allowedHosts = ["devbox.local"]
/// let server = try InspectorServer(hub: hub, options: options)
/// ```
public struct ServerOptions: Sendable, Hashable {
    /// The address to listen on. Loopback (`127.0.0.1`, `::1`, `localhost`) unless you mean to expose the inspector.
    public var host: String = "127.0.0.1"
    /// The TCP port; 0 picks any free port.
    public var port: Int = 8081
    /// The token clients must present. `nil`: a random 256-bit token for this start.
    public var token: String?
    /// The dashboard's files; `nil` serves no static files (every non-API path is 404).
    public var publicDirectory: URL?
    /// Refuse every write (WebSocket or HTTP) with `read_only`; reads still work.
    public var readOnly: Bool = false
    /// The most bytes of request line and headers a request may have (431 beyond).
    public var maxHeaderBytes: Int = 16 << 10
    /// The most bytes an HTTP request body may have (413 `too_large` beyond).
    public var maxBodyBytes: Int = 4 << 20
    /// The most bytes a WebSocket message (all its fragments) may have (close 1009 beyond).
    public var maxMessageBytes: Int = 4 << 20
    /// How long a new connection may take to send its request headers before it is dropped; also the longest pause
    /// allowed within a request body (libwebsockets applies the same timeout to both).
    public var headerTimeout: Duration = .seconds(10)
    /// The most client connections open at once (HTTP and WebSocket). Past it, the connection that has waited
    /// longest without completing its request is answered 503 `unavailable` and closed to make room; when every
    /// connection is being answered or is a WebSocket client, the new one gets that answer instead. Each takes one
    /// file descriptor of the process, so keep it well under the descriptor limit (`ulimit -n`).
    public var maxConnections: Int = 256
    /// The most bytes of HTTP request bodies the server holds at once, over every connection (at least
    /// ``maxBodyBytes``): a body that would pass it is answered 503 `unavailable` and its connection closed.
    public var maxBufferedBodyBytes: Int = 32 << 20
    /// How long a WebSocket client may leave a message only partly taken (its socket full: it does not read)
    /// before the server drops the connection; the client reconnects and resynchronises.
    public var stalledClientTimeout: Duration = .seconds(30)
    /// More names accepted in `Host` (and in `Origin`'s host), beside `localhost`, `127.0.0.1` and `[::1]`.
    public var allowedHosts: [String] = []
    /// More origins accepted exactly as given (`http://localhost:5173`), beside `http://ALLOWED-HOST:PORT`.
    public var allowedOrigins: [String] = []
    /// The server name sent in `hello`.
    public var name: String = "keyscope"
    /// Whether to write a ``KeyscopeInspector/ServerRecord`` (address and token, mode 0600) so that the `keyscope`
    /// CLI on this machine finds the server by itself; removed again on stop.
    public var writesServerRecord: Bool = true
    /// Deepest JSON nesting accepted in a request: a store's deepest value (``KeyscopeCore/StoreLimits/maxDepth``,
    /// 512) with room for the request's own wrapping (a transaction's value sits three levels down), so that a
    /// value a store may hold can be written by every request that carries one.
    public var maxJSONDepth: Int = StoreLimits.maxDepth + 8
    /// The nice value the service thread (and the two threads that run requests) runs at on Linux, where a thread
    /// has its own (elsewhere the thread keeps its priority): 10 by default, so that when the cores are busy the
    /// service's own threads come first and the inspector (with the clients it feeds) takes what they leave; when
    /// the cores are idle it changes nothing. 0 keeps the priority of the thread that started the server. Values are
    /// clamped to 0…19 (a thread may lower its priority, not raise it).
    public var serviceThreadNice: Int = 10

    public init() {}

    /// Whether ``host`` is a loopback address or name.
    public var isLoopback: Bool { HostPolicy.isLoopback(host) }
}
