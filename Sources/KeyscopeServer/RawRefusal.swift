import KeyscopeLws

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The last word to a client whose request lws dropped while parsing it (lws 4.1 closes such sockets without an
/// answer): a complete HTTP/1.1 error response written straight to the socket just before lws closes it.
///
/// What the client sent and lws did not read is drained first, and the write side is shut down after the
/// response, so that the close is a FIN that lets the client read the answer rather than a reset that may lose it.
enum RawRefusal {
    static func send(_ wsi: LwsConnection, _ refusal: Refusal) {
        let fd = wsi.socketDescriptor
        guard fd >= 0 else { return }
        let response = refusal.rawResponse
        var scratch = [UInt8](repeating: 0, count: 16 << 10)
        for _ in 0..<64 where recv(fd, &scratch, scratch.count, Int32(MSG_DONTWAIT)) > 0 {}
        _ = response.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL)) }
        shutdown(fd, Int32(SHUT_WR))
    }
}
