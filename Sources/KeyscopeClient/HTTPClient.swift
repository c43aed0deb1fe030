import Foundation
import KeyscopeProtocol

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A small HTTP/1.1 client for an inspector server's HTTP endpoints (`/tune`, `/api/…`), over plain POSIX sockets.
///
/// ```swift
/// let client = HTTPClient(endpoint: InspectorEndpoint(record: try ServerRecord.find(port: nil)))
/// let response = try client.send(method: "PUT", target: TunePath.target(key: "toolbar_height", value: "64"))
/// print(response.status, String(decoding: response.body, as: UTF8.self))
/// ```
/// One request per connection, as the server answers (`Connection: close`): connect, send the request whole, read
/// until the response is complete (`Content-Length`) or the server closes. It sends `Host: HOST:PORT` as the
/// server's Host rule wants, the token as `Authorization: Bearer T` (docs/protocol.md; never in the URL, where logs
/// would keep it), no `Origin` (the server checks Origin only when one is sent), and `Content-Length` on every
/// request with a body. Each call is blocking and bounded by ``timeout`` as a whole; calls may run on any thread.
public struct HTTPClient: Sendable {
    /// The server and its token.
    public var endpoint: InspectorEndpoint
    /// How long one call may take, connecting included.
    public var timeout: Duration
    /// The largest response accepted (``HTTPClientError/Code/badResponse`` beyond).
    public var maxResponseBytes: Int

    /// A client of the server at `endpoint` (its token goes in every request's `Authorization`).
    public init(endpoint: InspectorEndpoint, timeout: Duration = .seconds(10), maxResponseBytes: Int = 64 << 20) {
        self.endpoint = endpoint
        self.timeout = timeout
        self.maxResponseBytes = maxResponseBytes
    }

    /// Sends one request and returns the server's response, whatever its status.
    ///
    /// - Parameters:
    ///   - target: the request target as it goes on the wire: a path, already percent-encoded, with any query.
    ///   - body: sent with `Content-Type: contentType` and its `Content-Length`.
    ///   - headers: more header fields; a `Host` here replaces the endpoint's.
    /// - Throws: ``HTTPClientError`` when there is no complete response.
    public func send(
        method: String, target: String, body: [UInt8]? = nil, contentType: String = "application/json",
        headers: [(name: String, value: String)] = []
    ) throws(HTTPClientError) -> HTTPResponse {
        let request = try requestBytes(
            method: method, target: target, body: body, contentType: contentType, headers: headers)
        let deadline = ContinuousClock.now + timeout
        let socket = try Socket.connect(to: endpoint, deadline: deadline, timeout: timeout)
        defer { socket.close() }
        let sendError: HTTPClientError?
        do {
            try socket.write(request, deadline: deadline)
            sendError = nil
        } catch {
            // The server may have answered and closed early (413 for a body over its limit): read that answer.
            sendError = error
        }
        let bytes: [UInt8]
        do {
            bytes = try socket.readResponse(deadline: deadline, limit: maxResponseBytes)
        } catch {
            throw sendError ?? error
        }
        if let sendError, HTTPResponse.endOfHeaders(bytes) == nil { throw sendError }
        return try HTTPResponse(parsing: bytes)
    }

    /// The request's bytes: request line, headers, body.
    func requestBytes(
        method: String, target: String, body: [UInt8]?, contentType: String,
        headers: [(name: String, value: String)] = []
    ) throws(HTTPClientError) -> [UInt8] {
        guard method.allSatisfy({ $0.isASCII && $0.isUppercase }), !method.isEmpty else {
            throw HTTPClientError(.badRequest, "\"\(method)\" is not an HTTP method")
        }
        guard target.hasPrefix("/"), target.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else {
            throw HTTPClientError(
                .badRequest, "the request target must be a percent-encoded path starting with /, not \"\(target)\"")
        }
        let values = [contentType, endpoint.token] + headers.flatMap { [$0.name, $0.value] }
        guard !values.contains(where: { $0.contains(where: \.isNewline) }) else {
            throw HTTPClientError(.badRequest, "a header name or value cannot hold a line break")
        }
        var head = "\(method) \(target) HTTP/1.1\r\n"
        if !headers.contains(where: { $0.name.lowercased() == "host" }) { head += "Host: \(endpoint.hostHeader)\r\n" }
        for header in headers { head += "\(header.name): \(header.value)\r\n" }
        if !endpoint.token.isEmpty { head += "Authorization: Bearer \(endpoint.token)\r\n" }
        head += "Accept: application/json\r\nUser-Agent: keyscope/\(InspectorProtocol.packageVersion)\r\n"
        head += "Connection: close\r\n"
        if let body {
            head += "Content-Type: \(contentType)\r\nContent-Length: \(body.count)\r\n"
        } else if method == "PUT" || method == "POST" {
            head += "Content-Length: 0\r\n"
        }
        head += "\r\n"
        return Array(head.utf8) + (body ?? [])
    }
}

/// A connected TCP socket with deadlines (non-blocking, waited on with `poll`).
private struct Socket {
    let fd: Int32
    let endpoint: InspectorEndpoint

    /// Connects to the first address of the endpoint's host that accepts.
    static func connect(to endpoint: InspectorEndpoint, deadline: ContinuousClock.Instant, timeout: Duration)
        throws(HTTPClientError) -> Socket
    {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
        hints.ai_socktype = SOCK_STREAM
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(endpoint.address, String(endpoint.port), &hints, &list)
        guard status == 0, let first = list else {
            let why = String(cString: gai_strerror(status))
            throw HTTPClientError(
                .connectionFailed, "could not connect to \(endpoint.hostHeader): the host does not resolve (\(why))")
        }
        defer { freeaddrinfo(first) }
        var reason = "no address"
        var next: UnsafeMutablePointer<addrinfo>? = first
        while let info = next {
            next = info.pointee.ai_next
            let fd = socket(info.pointee.ai_family, info.pointee.ai_socktype, info.pointee.ai_protocol)
            guard fd >= 0 else {
                reason = Self.errorText()
                continue
            }
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            #if canImport(Darwin)
            var one: Int32 = 1
            _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
            #endif
            let socket = Socket(fd: fd, endpoint: endpoint)
            if systemConnect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 { return socket }
            if errno == EINPROGRESS {
                guard socket.wait(for: Int16(POLLOUT), until: deadline) else {
                    socket.close()
                    throw HTTPClientError(
                        .timedOut, "could not connect to \(endpoint.hostHeader) within \(timeout)")
                }
                var error: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                if getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) == 0, error == 0 { return socket }
                errno = error
            }
            reason = Self.errorText()
            socket.close()
        }
        throw HTTPClientError(
            .connectionFailed,
            "could not connect to \(endpoint.hostHeader): \(reason) (is a keyscope server running there?)")
    }

    func close() { _ = systemClose(fd) }

    /// Sends all of `bytes`.
    func write(_ bytes: [UInt8], deadline: ContinuousClock.Instant) throws(HTTPClientError) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { raw in
                systemSend(fd, raw.baseAddress! + offset, raw.count - offset, Self.sendFlags)
            }
            if sent > 0 {
                offset += sent
            } else if sent < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR {
                guard wait(for: Int16(POLLOUT), until: deadline) else {
                    throw HTTPClientError(.timedOut, "\(endpoint.hostHeader) did not take the request in time")
                }
            } else {
                throw HTTPClientError(
                    .connectionFailed, "sending the request to \(endpoint.hostHeader) failed: \(Self.errorText())")
            }
        }
    }

    /// Reads until the response is complete (its `Content-Length`) or the server closes.
    func readResponse(deadline: ContinuousClock.Instant, limit: Int) throws(HTTPClientError) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            if let expected = HTTPResponse.expectedLength(bytes), bytes.count >= expected { return bytes }
            let count = chunk.withUnsafeMutableBytes { raw in recv(fd, raw.baseAddress, raw.count, 0) }
            if count > 0 {
                bytes += chunk[..<count]
                guard bytes.count <= limit else {
                    throw HTTPClientError(.badResponse, "the response is over this client's limit of \(limit) bytes")
                }
            } else if count == 0 {
                return bytes
            } else if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR {
                guard wait(for: Int16(POLLIN), until: deadline) else {
                    throw HTTPClientError(.timedOut, "\(endpoint.hostHeader) did not answer in time")
                }
            } else if errno == ECONNRESET, HTTPResponse.endOfHeaders(bytes) != nil {
                return bytes
            } else {
                throw HTTPClientError(
                    .connectionFailed, "reading the response from \(endpoint.hostHeader) failed: \(Self.errorText())")
            }
        }
    }

    /// Waits until the socket is ready for `events`; false at the deadline.
    func wait(for events: Int16, until deadline: ContinuousClock.Instant) -> Bool {
        while true {
            let left = deadline - ContinuousClock.now
            guard left > .zero else { return false }
            let (seconds, attoseconds) = left.components
            let milliseconds = Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
            var entry = pollfd(fd: fd, events: events, revents: 0)
            let ready = poll(&entry, 1, milliseconds)
            if ready > 0 { return true }
            if ready < 0, errno != EINTR { return true }  // let the next call report the error
        }
    }

    private static let sendFlags: Int32 = {
        #if canImport(Glibc)
        Int32(MSG_NOSIGNAL)
        #else
        0
        #endif
    }()

    private static func errorText() -> String { String(cString: strerror(errno)) }
}

// The C calls whose names Swift's own methods here shadow.
private func systemConnect(_ fd: Int32, _ address: UnsafePointer<sockaddr>?, _ length: socklen_t) -> Int32 {
    connect(fd, address, length)
}

private func systemClose(_ fd: Int32) -> Int32 { close(fd) }

private func systemSend(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int, _ flags: Int32) -> Int {
    send(fd, buffer, count, flags)
}
