import KeyscopeLws
import Synchronization

/// The server on its ``KeyscopeLws/LwsServiceThread``: what it does when the context exists, after each turn of the
/// service loop, and when the context ends. Its events arrive in ``ServerCore/handle(_:on:input:length:)``.
extension ServerCore: LwsService {
    func contextCreated(
        _ context: LwsContextHandle, vhost: LwsVhost?, port: Int, protocolName: UnsafeMutablePointer<CChar>
    ) {
        if let vhost { adoptCaptureWatch(vhost) }
        policy = HostPolicy(port: port, extraHosts: options.allowedHosts, extraOrigins: options.allowedOrigins)
        waker.context.withLock { $0 = context }
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
