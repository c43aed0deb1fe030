#if canImport(Glibc)
import Glibc

private let streamSocket = Int32(SOCK_STREAM.rawValue)
private let sendFlags = Int32(MSG_NOSIGNAL)
#elseif canImport(Darwin)
import Darwin

private let streamSocket = SOCK_STREAM
private let sendFlags: Int32 = 0
#endif

/// A blocking WebSocket client of the inspector on a plain POSIX socket: the upgrade to `keyscope.v1` with the
/// token, whole text messages in (fragments joined, pings answered), masked text messages out, and the server's
/// close code. Every read waits at most ten seconds, so a server that stops answering fails the run, never hangs it.
///
/// ```swift
/// let client = try LeakClient(port: port, token: token)
/// let hello = try client.nextMessage()          // {"type":"hello",…}
/// try client.sendText(#"{"id":1,"type":"resync"}"#)
/// ```
final class LeakClient {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private let fd: Int32
    private var received: [UInt8] = []
    /// The server's close code, once it closed (1001 when the inspector stops).
    private(set) var closeCode: Int?

    init(port: Int, token: String) throws(Failure) {
        fd = socket(AF_INET, streamSocket, 0)
        guard fd >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(fd)
            throw Failure(description: "connect to port \(port): errno \(errno)")
        }
        try upgrade(port: port, token: token)
    }

    deinit { close(fd) }

    private func upgrade(port: Int, token: String) throws(Failure) {
        let request =
            "GET /ws HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: a2V5c2NvcGUtbGVhay1jaGVjaw==\r\nSec-WebSocket-Version: 13\r\n"
            + "Sec-WebSocket-Protocol: keyscope.v1\r\nAuthorization: Bearer \(token)\r\n\r\n"
        try sendAll(Array(request.utf8))
        let end: [UInt8] = [13, 10, 13, 10]
        while true {
            if let index = firstIndex(of: end) {
                let head = String(decoding: received[..<index], as: UTF8.self)
                guard head.hasPrefix("HTTP/1.1 101") else { throw Failure(description: "upgrade refused: \(head)") }
                received.removeFirst(index + end.count)
                return
            }
            guard try receive() else { throw Failure(description: "the server closed during the upgrade") }
        }
    }

    /// The next whole text message, or `nil` once the server closed (``closeCode`` says how).
    func nextMessage() throws(Failure) -> [UInt8]? {
        var message: [UInt8] = []
        while true {
            guard let (fin, opcode, payload) = try nextFrame() else { return nil }
            switch opcode {
            case 0x1, 0x0:
                message += payload
                if fin { return message }
            case 0x8:
                closeCode = payload.count >= 2 ? Int(payload[0]) << 8 | Int(payload[1]) : 1005
                try? sendFrame(0x8, Array(payload.prefix(2)))
                return nil
            case 0x9:
                try sendFrame(0xA, payload)
            case 0xA:
                break
            default:
                throw Failure(description: "unexpected opcode \(opcode)")
            }
        }
    }

    /// Sends `text` as one masked text frame.
    func sendText(_ text: String) throws(Failure) { try sendFrame(0x1, Array(text.utf8)) }

    /// Closes with 1000 and reads until the server has closed too.
    func closeAndDrain() throws(Failure) {
        try sendFrame(0x8, [0x03, 0xE8])
        while try nextMessage() != nil {}
    }

    private func nextFrame() throws(Failure) -> (fin: Bool, opcode: UInt8, payload: [UInt8])? {
        while true {
            if received.count >= 2 {
                var header = 2
                var length = Int(received[1] & 0x7F)
                if length == 126, received.count >= 4 {
                    length = Int(received[2]) << 8 | Int(received[3])
                    header = 4
                } else if length == 127, received.count >= 10 {
                    length = received[2..<10].reduce(0) { $0 << 8 | Int($1) }
                    header = 10
                }
                if length < 126 || header > 2, received.count >= header + length {
                    let frame = (received[0] & 0x80 != 0, received[0] & 0x0F, Array(received[header..<header + length]))
                    received.removeFirst(header + length)
                    return frame
                }
            }
            guard try receive() else { return nil }
        }
    }

    private func sendFrame(_ opcode: UInt8, _ payload: [UInt8]) throws(Failure) {
        let mask: [UInt8] = [0x4B, 0x53, 0x4C, 0x4B]
        var frame: [UInt8] = [0x80 | opcode]
        if payload.count < 126 {
            frame.append(0x80 | UInt8(payload.count))
        } else {
            precondition(payload.count <= 0xFFFF, "the leak check sends small messages only")
            frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        }
        frame += mask
        for (index, byte) in payload.enumerated() { frame.append(byte ^ mask[index % 4]) }
        try sendAll(frame)
    }

    private func receive() throws(Failure) -> Bool {
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                received += chunk[..<count]
                return true
            }
            if count == 0 || errno == ECONNRESET { return false }
            if errno == EINTR { continue }
            throw Failure(description: errno == EAGAIN ? "no message within 10 s" : "recv: errno \(errno)")
        }
    }

    private func sendAll(_ bytes: [UInt8]) throws(Failure) {
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + sent, bytes.count - sent, sendFlags) }
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure(description: "send: errno \(errno)")
            }
            sent += count
        }
    }

    private func firstIndex(of needle: [UInt8]) -> Int? {
        guard received.count >= needle.count else { return nil }
        return (0...(received.count - needle.count)).first { received[$0..<$0 + needle.count].elementsEqual(needle) }
    }
}
