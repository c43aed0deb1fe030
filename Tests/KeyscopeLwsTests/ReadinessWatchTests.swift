import KeyscopeLws
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The request-line capture's watch: reports a socket when something new arrives on it, once, and not again for
/// bytes that stay unread.
@Suite struct ReadinessWatchTests {
    /// A connected pair of stream sockets.
    private func pair() -> (Int32, Int32) {
        var fds: [Int32] = [0, 0]
        #if canImport(Glibc)
        let kind = Int32(SOCK_STREAM.rawValue)
        #else
        let kind = SOCK_STREAM
        #endif
        #expect(socketpair(AF_UNIX, kind, 0, &fds) == 0)
        return (fds[0], fds[1])
    }

    private func send(_ fd: Int32, _ text: String) {
        let bytes = Array(text.utf8)
        #expect(write(fd, bytes, bytes.count) == bytes.count)
    }

    @Test func reportsNewBytesOnceEach() {
        let watch = ReadinessWatch()
        #expect(watch.isValid)
        let (server, client) = pair()
        defer {
            close(server)
            close(client)
        }
        #expect(watch.watch(server))
        #expect(watch.drain().isEmpty)
        send(client, "GET /tu")
        #expect(watch.drain() == [server])
        // The bytes stay unread (the capture only peeks): nothing new, nothing reported.
        #expect(watch.drain().isEmpty)
        send(client, "ne HTTP/1.1\r\n")
        #expect(watch.drain() == [server])
    }

    @Test func reportsAHangUpAndForgetsUnwatchedSockets() {
        let watch = ReadinessWatch()
        let (server, client) = pair()
        let (other, otherClient) = pair()
        defer {
            close(server)
            close(other)
            close(otherClient)
        }
        #expect(watch.watch(server))
        #expect(watch.watch(other))
        watch.unwatch(other)
        send(otherClient, "GET /")
        close(client)
        #expect(watch.drain() == [server])
    }

    @Test func reportsBytesThatArrivedBeforeTheWatch() {
        let watch = ReadinessWatch()
        let (server, client) = pair()
        defer {
            close(server)
            close(client)
        }
        send(client, "GET")
        #expect(watch.watch(server))
        #expect(watch.drain() == [server])
    }
}
