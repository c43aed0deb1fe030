import CLibWebSockets
import KeyscopeLws
import Synchronization

/// The server on its ``KeyscopeLws/LwsServiceThread``: what it does when the context exists, after each turn of the
/// service loop, and when the context ends.
extension ServerCore: LwsService {
    func contextCreated(
        _ context: OpaquePointer, vhost: OpaquePointer?, port: Int, protocolName: UnsafeMutablePointer<CChar>
    ) {
        if let vhost { adoptCaptureWatch(vhost) }
        policy = HostPolicy(port: port, extraHosts: options.allowedHosts, extraOrigins: options.allowedOrigins)
        waker.context.withLock { $0 = LwsContextHandle(context) }
    }

    func serviced() {
        requestLines.settleNewHolds()
        releaseHeldReads()
    }

    var isFinished: Bool { finished || forced }

    func contextEnding() {
        waker.context.withLock { $0 = nil }
        worker.stop()
    }
}

/// The C entry point lws calls for every event: finds the core through the context's user pointer.
func serverCallback(
    _ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
    _ input: UnsafeMutableRawPointer?, _ length: Int
) -> Int32 {
    guard let wsi, let core = LwsServiceThread.service(of: wsi, as: ServerCore.self) else { return 0 }
    return core.handle(wsi, reason, user, input, length)
}
