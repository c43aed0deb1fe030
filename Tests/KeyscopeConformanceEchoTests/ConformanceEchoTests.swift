import ArgumentParser
import Foundation
import Testing

@testable import KeyscopeClient
@testable import KeyscopeConformanceEcho

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The conformance echo's start rules, its HTTP side, and its WebSocket side through the CLI's own client (both ends
/// on the lws layer). Tests/e2e/test_echo.py checks the rest with raw frames, and `make conformance` runs the
/// Autobahn suite against it.
@Suite(.serialized, .timeLimit(.minutes(2))) struct ConformanceEchoTests {
    func makeEcho(host: String = "127.0.0.1", maxMessageBytes: Int = 4 << 20) -> EchoServer {
        var options = EchoOptions()
        options.host = host
        options.port = 0
        options.maxMessageBytes = maxMessageBytes
        return EchoServer(options: options)
    }

    @Test(arguments: ["0.0.0.0", "192.0.2.1", "::"])
    func listensOnLoopbackOnly(host: String) {
        let echo = makeEcho(host: host)
        #expect(
            throws: EchoError(
                "the conformance echo listens on loopback only (127.0.0.1, ::1 or localhost), not on \(host)")
        ) {
            _ = try echo.start()
        }
    }

    @Test func theCommandRefusesWhatTheEchoCannotServe() {
        #expect(throws: (any Error).self) { try EchoCommand.parse(["--host", "0.0.0.0"]) }
        #expect(throws: (any Error).self) { try EchoCommand.parse(["--max-message", "1023"]) }
        #expect(throws: (any Error).self) { try EchoCommand.parse(["--port", "65536"]) }
        let command = try? EchoCommand.parse(["--port", "0", "--max-message", "20971520"])
        #expect(command?.options.maxMessageBytes == 20 << 20)
        #expect(command?.options.url(port: 9001) == "ws://127.0.0.1:9001/")
    }

    @Test func plainHTTPIsNotFound() async throws {
        let echo = makeEcho()
        let port = try echo.start()
        defer { echo.stop() }
        for path in ["/", "/api/health", "/ws"] {
            let url = try #require(URL(string: "http://127.0.0.1:\(port)\(path)"))
            let (data, response) = try await URLSession.shared.data(from: url)
            #expect((response as? HTTPURLResponse)?.statusCode == 404, "\(path)")
            #expect(String(decoding: data, as: UTF8.self).contains(#""code":"not_found""#), "\(path)")
            // The security headers of every inspector response.
            #expect((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "X-Content-Type-Options") == "nosniff")
        }
    }

    @Test func aMessageSentInManyFramesComesBackWhole() async throws {
        let echo = makeEcho()
        let port = try echo.start()
        defer { echo.stop() }
        // 3-byte frames: the echo puts 10,000 bytes together from 3,334 frames and sends them back as one message.
        let client = EchoClient(port: port, fragmentBytes: 3)
        var events = client.events.makeAsyncIterator()
        #expect(await events.next() == .opened)
        let message = Array(String(repeating: "0123456789", count: 1000).utf8)
        client.connection.send(message)
        #expect(await events.next() == .message(message))
        client.connection.send(Array("second".utf8))
        #expect(await events.next() == .message(Array("second".utf8)))
        client.connection.close()
        #expect(await events.next() == .closed(WebSocketClosure(cause: .client, code: nil, reason: "")))
    }

    @Test func aMessageOverTheLimitClosesWith1009() async throws {
        let echo = makeEcho(maxMessageBytes: 1024)
        let port = try echo.start()
        defer { echo.stop() }
        let client = EchoClient(port: port, fragmentBytes: 512)
        var events = client.events.makeAsyncIterator()
        #expect(await events.next() == .opened)
        client.connection.send(Array("fits".utf8))
        #expect(await events.next() == .message(Array("fits".utf8)))
        client.connection.send([UInt8](repeating: UInt8(ascii: "x"), count: 1025))
        #expect(
            await events.next()
                == .closed(WebSocketClosure(cause: .server, code: 1009, reason: "message over 1024 bytes")))
    }

    @Test func stoppingClosesEveryClientWith1001() async throws {
        let echo = makeEcho()
        let port = try echo.start()
        var clients = [EchoClient(port: port, fragmentBytes: 64), EchoClient(port: port, fragmentBytes: 64)].map {
            $0.events.makeAsyncIterator()
        }
        for index in clients.indices { #expect(await clients[index].next() == .opened) }
        echo.stop()
        for index in clients.indices {
            #expect(
                await clients[index].next()
                    == .closed(WebSocketClosure(cause: .server, code: 1001, reason: "server shutting down")))
        }
    }
}

/// A ``KeyscopeClient/WebSocketConnection`` to the echo (any path and subprotocol do: it sends `/ws` and
/// `keyscope.v1`), with its events in order.
struct EchoClient {
    let connection: WebSocketConnection
    let events: AsyncStream<WebSocketEvent>

    init(port: Int, fragmentBytes: Int) {
        let (stream, continuation) = AsyncStream.makeStream(of: WebSocketEvent.self)
        var settings = WebSocketConnection.Settings(
            endpoint: InspectorEndpoint(host: "127.0.0.1", port: port, token: ""), maxMessageBytes: 1 << 20,
            timeoutSeconds: 30)
        settings.fragmentBytes = fragmentBytes
        connection = WebSocketConnection(settings)
        events = stream
        connection.start { event in
            continuation.yield(event)
            switch event {
            case .failed, .closed: continuation.finish()
            case .opened, .message: break
            }
        }
    }
}
