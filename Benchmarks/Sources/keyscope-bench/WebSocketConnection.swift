#if canImport(Glibc)
import Glibc

private let streamSocket = Int32(SOCK_STREAM.rawValue)
private let sendFlags = Int32(MSG_NOSIGNAL)
#elseif canImport(Darwin)
import Darwin

private let streamSocket = SOCK_STREAM
private let sendFlags: Int32 = 0
#endif

// File-scope twins of the C calls whose names the connection's own members shadow.
private func closeDescriptor(_ fd: Int32) { _ = close(fd) }
private func openSocket() -> Int32 { socket(AF_INET, streamSocket, 0) }
private func connectSocket(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
    connect(fd, address, length)
}

/// A blocking WebSocket client connection on a plain POSIX socket, for the one thread that reads it: the HTTP
/// upgrade (subprotocol `keyscope.v1`, bearer token), then whole messages, unmasked as servers send them, with 7-,
/// 16- and 64-bit lengths and continuation frames. It answers pings and closes; the only frames it sends are pong
/// and close (masked, as RFC 6455 wants of clients).
///
/// ```swift
/// let connection = try WebSocketConnection.open(port: 8081, token: token)
/// while let length = try connection.nextMessage({ payload, isText in payload.count }) { total += length }
/// ```
/// A message's payload is read in place from the receive buffer (no copy) unless it came in fragments.
final class WebSocketConnection {
    private let socket: Int32
    private var buffer: UnsafeMutableRawPointer
    private var capacity: Int
    /// Bytes `start..<end` of `buffer` are received and not yet consumed.
    private var start = 0
    private var end = 0
    /// The message being reassembled from fragments, and its opcode.
    private var fragments: [UInt8] = []
    private var fragmentOpcode: UInt8 = 0
    private var sentClose = false
    /// Every byte read from the socket (HTTP response and frame headers included).
    private(set) var bytesRead = 0

    private init(socket: Int32, capacity: Int) {
        self.socket = socket
        self.capacity = capacity
        self.buffer = .allocate(byteCount: capacity, alignment: 16)
    }

    deinit {
        closeDescriptor(socket)
        buffer.deallocate()
    }

    /// Connects to `127.0.0.1:port` and upgrades `path`; throws when the server does not answer 101.
    static func open(port: Int, token: String, path: String = "/ws") throws(ClientError) -> WebSocketConnection {
        let fd = openSocket()
        guard fd >= 0 else { throw .system("socket", errno) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connectSocket(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            let code = errno
            closeDescriptor(fd)
            throw .system("connect to 127.0.0.1:\(port)", code)
        }
        let connection = WebSocketConnection(socket: fd, capacity: 1 << 20)
        try connection.upgrade(port: port, token: token, path: path)
        return connection
    }

    private func upgrade(port: Int, token: String, path: String) throws(ClientError) {
        let key: [UInt8] = (0..<16).map { _ in UInt8.random(in: 0...255) }
        let request = """
            GET \(path) HTTP/1.1\r
            Host: 127.0.0.1:\(port)\r
            Upgrade: websocket\r
            Connection: Upgrade\r
            Sec-WebSocket-Key: \(Base64.encode(key))\r
            Sec-WebSocket-Version: 13\r
            Sec-WebSocket-Protocol: keyscope.v1\r
            Authorization: Bearer \(token)\r
            \r

            """
        try sendAll(Array(request.utf8))
        let terminator: [UInt8] = [13, 10, 13, 10]
        while true {
            let received = UnsafeRawBufferPointer(start: buffer, count: end)
            if let range = firstRange(of: terminator, in: received) {
                let head = String(decoding: received[..<range], as: UTF8.self)
                guard head.hasPrefix("HTTP/1.1 101") else {
                    throw .handshake(head.split(separator: "\r\n").first.map(String.init) ?? head)
                }
                start = range + terminator.count
                return
            }
            guard try receive() else { throw .handshake("the server closed the connection during the upgrade") }
        }
    }

    /// Reads until one whole data message is there and returns what `body` makes of its payload (valid only during
    /// the call); `nil` once the server closed (close frame or end of stream).
    func nextMessage<R>(_ body: (UnsafeRawBufferPointer, _ isText: Bool) throws -> R) throws -> R? {
        while true {
            if let frame = try takeFrame() {
                let isData = frame.opcode == 0x1 || frame.opcode == 0x2
                if isData, frame.fin {
                    return try body(UnsafeRawBufferPointer(frame.payload), frame.opcode == 0x1)
                }
                switch frame.opcode {
                case 0x1, 0x2:
                    fragments = Array(frame.payload)
                    fragmentOpcode = frame.opcode
                case 0x0:
                    fragments.append(contentsOf: frame.payload)
                    guard frame.fin else { continue }
                    defer { fragments.removeAll(keepingCapacity: true) }
                    return try fragments.withUnsafeBytes { try body($0, fragmentOpcode == 0x1) }
                case 0x8:
                    if !sentClose { try? sendControl(0x8, payload: Array(frame.payload.prefix(2))) }
                    sentClose = true
                    return nil
                case 0x9:
                    try sendControl(0xA, payload: Array(frame.payload))
                case 0xA:
                    break
                default:
                    throw ClientError.protocolViolation("unknown opcode \(frame.opcode)")
                }
                continue
            }
            guard try receive() else { return nil }
        }
    }

    /// Sends close 1000 and reads until the server closes too (its remaining messages are dropped).
    func close() {
        if !sentClose {
            sentClose = (try? sendControl(0x8, payload: [0x03, 0xE8])) != nil
        }
        var timeout = timeval(tv_sec: 2, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        while (try? receive()) == true { start = end }
    }

    // MARK: Frames

    private struct Frame {
        let fin: Bool
        let opcode: UInt8
        let payload: UnsafeMutableRawBufferPointer
    }

    /// The next whole frame in the buffer (consumed), or `nil` when more bytes are needed.
    private func takeFrame() throws(ClientError) -> Frame? {
        let available = end - start
        guard available >= 2 else { return nil }
        let base = buffer + start
        let first = base.load(as: UInt8.self)
        let second = base.load(fromByteOffset: 1, as: UInt8.self)
        var header = 2
        var length = Int(second & 0x7F)
        if length == 126 {
            guard available >= 4 else { return nil }
            length = Int(base.loadUnaligned(fromByteOffset: 2, as: UInt16.self).bigEndian)
            header = 4
        } else if length == 127 {
            guard available >= 10 else { return nil }
            let long = base.loadUnaligned(fromByteOffset: 2, as: UInt64.self).bigEndian
            guard long <= UInt64(Int32.max) else { throw .protocolViolation("a frame of \(long) bytes") }
            length = Int(long)
            header = 10
        }
        let masked = second & 0x80 != 0
        let maskOffset = header
        if masked { header += 4 }
        guard available >= header + length else {
            reserve(header + length)
            return nil
        }
        let payload = UnsafeMutableRawBufferPointer(start: base + header, count: length)
        if masked {
            for index in 0..<length {
                payload[index] ^= base.load(fromByteOffset: maskOffset + index % 4, as: UInt8.self)
            }
        }
        start += header + length
        return Frame(fin: first & 0x80 != 0, opcode: first & 0x0F, payload: payload)
    }

    /// Makes room for a frame of `size` bytes from `start` on (grows the buffer when it is smaller).
    private func reserve(_ size: Int) {
        guard size > capacity else { return }
        var grown = capacity
        while grown < size { grown *= 2 }
        let bigger = UnsafeMutableRawPointer.allocate(byteCount: grown, alignment: 16)
        bigger.copyMemory(from: buffer + start, byteCount: end - start)
        buffer.deallocate()
        buffer = bigger
        capacity = grown
        end -= start
        start = 0
    }

    /// Reads what the socket has (at least one byte); false at the end of the stream.
    private func receive() throws(ClientError) -> Bool {
        if start == end {
            start = 0
            end = 0
        } else if capacity - end < capacity / 4 {
            memmove(buffer, buffer + start, end - start)
            end -= start
            start = 0
        }
        if end == capacity { reserve(capacity * 2) }
        while true {
            let count = recv(socket, buffer + end, capacity - end, 0)
            if count > 0 {
                end += count
                bytesRead += count
                return true
            }
            if count == 0 { return false }
            if errno == EINTR { continue }
            if errno == EAGAIN || errno == EWOULDBLOCK || errno == ECONNRESET { return false }
            throw .system("recv", errno)
        }
    }

    private func sendControl(_ opcode: UInt8, payload: [UInt8]) throws(ClientError) {
        let mask: [UInt8] = (0..<4).map { _ in UInt8.random(in: 0...255) }
        var frame: [UInt8] = [0x80 | opcode, 0x80 | UInt8(min(payload.count, 125))]
        frame += mask
        for (index, byte) in payload.prefix(125).enumerated() { frame.append(byte ^ mask[index % 4]) }
        try sendAll(frame)
    }

    private func sendAll(_ bytes: [UInt8]) throws(ClientError) {
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes { send(socket, $0.baseAddress! + sent, bytes.count - sent, sendFlags) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .system("send", errno)
            }
            sent += count
        }
    }

    private func firstRange(of needle: [UInt8], in haystack: UnsafeRawBufferPointer) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for index in 0...(haystack.count - needle.count) where haystack[index] == needle[0] {
            if (1..<needle.count).allSatisfy({ haystack[index + $0] == needle[$0] }) { return index }
        }
        return nil
    }
}

/// Base64 for the 16-byte `Sec-WebSocket-Key` (Foundation-free, so the client needs nothing but the socket).
enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        var index = 0
        while index < bytes.count {
            let chunk = Array(bytes[index..<min(index + 3, bytes.count)])
            let value = chunk.enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << (16 - 8 * UInt32($1.offset)) }
            for position in 0..<4 {
                output.append(position <= chunk.count ? alphabet[Int(value >> (18 - 6 * UInt32(position)) & 63)] : 61)
            }
            index += 3
        }
        return String(decoding: output, as: UTF8.self)
    }
}
