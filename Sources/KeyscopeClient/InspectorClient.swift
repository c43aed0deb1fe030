import KeyscopeCodec
public import KeyscopeCore
import KeyscopeProtocol
import Synchronization

/// A client of the inspector's WebSocket protocol (docs/protocol.md): connects to `ws://HOST:PORT/ws?token=T` with the
/// subprotocol `keyscope.v1`, hands every server message over as a parsed ``StoreValue``, and pairs requests with
/// their replies.
///
/// ```swift
/// import KeyscopeClient
/// import KeyscopeProtocol
///
/// let client = try await InspectorClient.connect(to: InspectorEndpoint(record: try ServerRecord.find(port: nil)))
/// let reply = try await client.send(request: [
///     "type": "write", "store": "app/memory", "op": "set", "path": "cart.total", "value": 100,
/// ])
/// print(reply.ok ? "seq \(reply.seq.map(String.init) ?? "none")" : "\(reply.error!)")
/// for try await message in client.messages {          // hello, snapshot, changes, gap, subscriptions…
///     if case .changes(let entries) = InspectorMessage(message) { print(entries.count, "entries") }
/// }
/// await client.close()                                 // close frame 1000
/// ```
///
/// - ``messages`` yields every message in the order it arrived, except the replies that ``send(request:)`` is
///   waiting for (those go to their caller). It buffers without limit, so read it or close the client: the server
///   never slows down for a slow client (it sends a `gap` and a fresh snapshot instead), and neither does this one.
/// - It finishes normally when this side closed or the server closed with 1000 or 1001, and throws an
///   ``InspectorClientError`` otherwise (``InspectorClientError/Code/closed`` with the code,
///   ``InspectorClientError/Code/tooLarge``, ``InspectorClientError/Code/badMessage``).
/// - All of lws runs on one service thread per client; every method here may be called from any thread or task.
public final class InspectorClient: Sendable {
    /// Where this client is connected.
    public let endpoint: InspectorEndpoint
    /// The configuration it was connected with.
    public let configuration: Configuration
    /// Every message from the server, parsed, in order (see the type's notes for replies, buffering and the end).
    public let messages: AsyncThrowingStream<StoreValue, any Error>

    private struct State {
        var connecting: CheckedContinuation<Void, any Error>?
        var replies = ReplyBook<CheckedContinuation<InspectorReply, any Error>>()
        /// Why the connection is over, once it is: what pending and later requests fail with.
        var ended: InspectorClientError?
        /// A failure this side found (a bad or oversized message) that the close it caused should report.
        var failure: InspectorClientError?
        var closing: [CheckedContinuation<Void, Never>] = []
    }

    private let connection: WebSocketConnection
    private let sink: AsyncThrowingStream<StoreValue, any Error>.Continuation
    private let state = Mutex(State())

    private init(endpoint: InspectorEndpoint, configuration: Configuration) {
        self.endpoint = endpoint
        self.configuration = configuration
        (messages, sink) = AsyncThrowingStream.makeStream(of: StoreValue.self, bufferingPolicy: .unbounded)
        connection = WebSocketConnection(
            WebSocketConnection.Settings(
                endpoint: endpoint, maxMessageBytes: configuration.maxMessageBytes,
                timeoutSeconds: max(1, configuration.connectTimeoutSeconds)))
    }

    deinit {
        connection.close()
        sink.finish()
    }

    /// Connects and returns once the server accepted the WebSocket upgrade.
    ///
    /// - Throws: ``InspectorClientError``: ``InspectorClientError/Code/refused`` with the HTTP status (401 for a
    ///   missing or wrong token, 403 for a refused Host or Origin), ``InspectorClientError/Code/connectionFailed``
    ///   when nothing answers or the answer is no WebSocket; `CancellationError` when the task is cancelled.
    public static func connect(to endpoint: InspectorEndpoint, configuration: Configuration = Configuration())
        async throws -> InspectorClient
    {
        let client = InspectorClient(endpoint: endpoint, configuration: configuration)
        // lws 4.1 waits about 30 s for a handshake answer whatever its timeout settings say, so the limit is kept here.
        let timer = Task {
            try await Task.sleep(for: .seconds(max(1, configuration.connectTimeoutSeconds)))
            client.abandon(
                .connectionFailed(endpoint, "no WebSocket handshake within \(configuration.connectTimeoutSeconds) s"))
        }
        defer { timer.cancel() }
        do {
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (waiter: CheckedContinuation<Void, any Error>) in
                    client.state.withLock { $0.connecting = waiter }
                    client.connection.start { [weak client] event in client?.handle(event) }
                }
            } onCancel: {
                client.connection.close()
            }
        } catch {
            // A cancelled attempt ends as a failure "closed by this client"; the cancellation is the news.
            if Task.isCancelled { throw CancellationError() }
            throw error
        }
        if Task.isCancelled {
            await client.close()
            throw CancellationError()
        }
        return client
    }

    /// Sends `request` (an object such as `["type": "write", …]`) with a new `id`, replacing any `id` it has, and
    /// returns the server's reply to it. A refusal is a reply too: look at ``InspectorReply/error``.
    ///
    /// ```swift
    /// let reply = try await client.send(request: ["type": "resync"])   // {"id": 1, "type": "resync"} goes out
    /// ```
    /// - Throws: ``InspectorClientError``: ``InspectorClientError/Code/badRequest`` for a request that is not an
    ///   object, ``InspectorClientError/Code/closed`` (or the error that ended the connection) when the connection
    ///   ends before the reply; `CancellationError` when the task is cancelled while waiting.
    public func send(request: StoreValue) async throws -> InspectorReply {
        guard case .object(var fields) = request else {
            throw InspectorClientError.badRequest("a request must be a JSON object, not \(request.typeName)")
        }
        let id = state.withLock { $0.replies.reserveID() }
        fields["id"] = .integer(id)
        let bytes: [UInt8]
        do {
            bytes = try JanssonCodec.encode(.object(fields), maxDepth: configuration.maxValueDepth + 3)
        } catch {
            throw InspectorClientError.badRequest(error.description)
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (waiter: CheckedContinuation<InspectorReply, any Error>) in
                let ended = state.withLock { state -> InspectorClientError? in
                    if let ended = state.ended { return ended }
                    state.replies.wait(id, waiter)
                    return nil
                }
                if let ended { return waiter.resume(throwing: ended) }
                if Task.isCancelled { return cancel(id) }
                if !connection.send(bytes) {
                    let ended = state.withLock { $0.ended } ?? .closedByClient
                    state.withLock { $0.replies.take(id) }?.resume(throwing: ended)
                }
            }
        } onCancel: {
            cancel(id)
        }
    }

    /// Closes the connection with code 1000 (after any requests already sent) and returns once it is closed and
    /// its thread has finished. Pending ``send(request:)`` calls fail; ``messages`` finishes. Calling it again, or
    /// after the server closed, returns at once.
    public func close() async {
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let over = state.withLock { state in
                if state.ended != nil { return true }
                state.closing.append(waiter)
                return false
            }
            if over {
                waiter.resume()
            } else {
                connection.close(code: 1000)
            }
        }
    }

    /// Gives up connecting with `error` (the connect timeout), when the connection is not open yet.
    private func abandon(_ error: InspectorClientError) {
        let connecting = state.withLock { state in
            guard state.connecting != nil else { return false }
            state.failure = state.failure ?? error
            return true
        }
        if connecting { connection.close() }
    }

    private func cancel(_ id: Int64) {
        state.withLock { $0.replies.take(id) }?.resume(throwing: CancellationError())
    }

    // MARK: Events, on the service thread

    private func handle(_ event: WebSocketEvent) {
        switch event {
        case .opened:
            state.withLock { $0.connecting.take() }?.resume()
        case .message(let bytes):
            receive(bytes)
        case .failed(let status, let reason):
            let error: InspectorClientError =
                state.withLock { $0.failure } ?? status.map { .refused(endpoint, status: $0) }
                ?? .connectionFailed(endpoint, reason)
            end(error, streamError: error)
        case .closed(let closure):
            end(closure)
        }
    }

    private func receive(_ bytes: [UInt8]) {
        let message: StoreValue
        do {
            // A message wraps its values in up to 5 levels: changes, entries, entry, patches, patch.
            message = try JanssonCodec.decode(bytes, maxDepth: configuration.maxValueDepth + 6)
        } catch {
            return reject(.badMessage(error.description))
        }
        guard case .object = message else { return reject(.badMessage("it is \(message.typeName)")) }
        if message["type"]?.stringValue == "reply", let id = message["id"]?.integerValue,
            let waiter = state.withLock({ $0.replies.take(id) })
        {
            return waiter.resume(returning: InspectorReply(message: message))
        }
        sink.yield(message)
    }

    /// Ends the connection because of something the server sent.
    private func reject(_ error: InspectorClientError) {
        state.withLock { $0.failure = $0.failure ?? error }
        connection.close(code: 1002, reason: "bad message")
    }

    private func end(_ closure: WebSocketClosure) {
        let failure = state.withLock { $0.failure }
        switch closure.cause {
        case .client:
            end(failure ?? .closedByClient, streamError: failure)
        case .tooLarge:
            let error = InspectorClientError.tooLarge(limit: configuration.maxMessageBytes)
            end(error, streamError: error)
        case .server:
            let error = InspectorClientError.closed(code: closure.code, reason: closure.reason)
            let normal = closure.code == 1000 || closure.code == 1001
            end(error, streamError: normal ? nil : error)
        case .dropped:
            end(.connectionLost, streamError: .connectionLost)
        }
    }

    /// Marks the connection as over: fails the connect and every waiting request with `error`, finishes the
    /// stream (throwing `streamError` when there is one), and lets ``close()`` return.
    private func end(_ error: InspectorClientError, streamError: InspectorClientError?) {
        let (connecting, waiting, closing) = state.withLock { state in
            state.ended = state.ended ?? error
            defer { state.closing = [] }
            return (state.connecting.take(), state.replies.takeAll(), state.closing)
        }
        connecting?.resume(throwing: error)
        for waiter in waiting { waiter.resume(throwing: error) }
        if let streamError { sink.finish(throwing: streamError) } else { sink.finish() }
        for waiter in closing { waiter.resume() }
    }
}
