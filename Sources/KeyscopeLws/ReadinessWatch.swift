// The shim brings <sys/epoll.h>, which Glibc's Swift module lacks.
import CLibWebSockets

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One descriptor that becomes readable when new bytes (or a hang-up) arrive on any socket it watches: an edge-
/// triggered epoll set on Linux, a kqueue with `EV_CLEAR` on Apple platforms. lws polls this descriptor like any
/// other (it is adopted as a raw file, see ``adopt(into:)``), so the server learns that a held connection sent more
/// of its request line without a timer or a poll of its own per connection.
///
/// ```swift
/// let watch = ReadinessWatch()
/// let watchConnection = watch.adopt(into: vhost)     // .rawFileReadable events on it from now on
/// _ = watch.watch(connection.socketDescriptor)
/// case .rawFileReadable: for socket in watch.drain() { … }
/// ```
///
/// Edge-triggered: a socket is reported when something new arrives, not again for bytes already reported and still
/// unread (the capture only peeks, so they stay in the socket until lws reads them). Service thread only.
package final class ReadinessWatch {
    /// The watch's own descriptor; -1 when it could not be made (or lws could not take it).
    package private(set) var descriptor: Int32
    /// Set once lws polls the descriptor: lws closes it with its context.
    private var ownedByLws = false

    package init() {
        #if os(Linux)
        descriptor = epoll_create1(Int32(EPOLL_CLOEXEC))
        #else
        descriptor = kqueue()
        #endif
    }

    deinit {
        if descriptor >= 0, !ownedByLws { close(descriptor) }
    }

    package var isValid: Bool { descriptor >= 0 }

    /// Has lws poll the watch's descriptor beside its sockets (``LwsVhost/adoptRawFile(_:)``): returns the
    /// connection its `.rawFileReadable` events arrive on, or `nil` when there is no descriptor or lws refused it
    /// (nothing is watched then). Either way the descriptor is lws's to close from then on. Call it once.
    package func adopt(into vhost: LwsVhost) -> LwsConnection? {
        guard isValid else { return nil }
        let adopted = vhost.adoptRawFile(descriptor)
        handedToLws(adopted: adopted != nil)
        return adopted
    }

    /// lws adopted the descriptor (`adopted`), or refused it and closed it: either way it is no longer this
    /// object's to close, and when refused, nothing is watched.
    func handedToLws(adopted: Bool) {
        ownedByLws = true
        if !adopted { descriptor = -1 }
    }

    /// Starts watching `socket`; returns false when it cannot be watched (the caller then leaves it to lws).
    /// A socket that already has unread bytes is reported at the next ``drain()``.
    package func watch(_ socket: Int32) -> Bool {
        guard isValid, socket >= 0 else { return false }
        #if os(Linux)
        var event = epoll_event()
        event.events = EPOLLIN.rawValue | EPOLLRDHUP.rawValue | EPOLLET.rawValue
        event.data.fd = socket
        return epoll_ctl(descriptor, EPOLL_CTL_ADD, socket, &event) == 0
        #else
        var change = kevent(
            ident: UInt(socket), filter: Int16(EVFILT_READ), flags: UInt16(EV_ADD | EV_CLEAR), fflags: 0, data: 0,
            udata: nil)
        return kevent(descriptor, &change, 1, nil, 0, nil) == 0
        #endif
    }

    /// Stops watching `socket` (nothing when it was not watched, or is closed already: the kernel forgot it then).
    package func unwatch(_ socket: Int32) {
        guard isValid, socket >= 0 else { return }
        #if os(Linux)
        var event = epoll_event()
        _ = epoll_ctl(descriptor, EPOLL_CTL_DEL, socket, &event)
        #else
        var change = kevent(
            ident: UInt(socket), filter: Int16(EVFILT_READ), flags: UInt16(EV_DELETE), fflags: 0, data: 0, udata: nil)
        _ = kevent(descriptor, &change, 1, nil, 0, nil)
        #endif
    }

    /// The sockets that had news since the last call, without waiting; empties the watch's ready list, so that
    /// its descriptor is no longer readable until something new arrives.
    package func drain() -> [Int32] {
        guard isValid else { return [] }
        var ready: [Int32] = []
        let batch = 256
        #if os(Linux)
        var events = [epoll_event](repeating: epoll_event(), count: batch)
        while true {
            let count = epoll_wait(descriptor, &events, Int32(batch), 0)
            guard count > 0 else { break }
            ready += events[..<Int(count)].map { $0.data.fd }
            if count < batch { break }
        }
        #else
        var events = [kevent](repeating: kevent(), count: batch)
        var zero = timespec(tv_sec: 0, tv_nsec: 0)
        while true {
            let count = kevent(descriptor, nil, 0, &events, Int32(batch), &zero)
            guard count > 0 else { break }
            ready += events[..<Int(count)].map { Int32($0.ident) }
            if count < batch { break }
        }
        #endif
        return ready
    }
}
