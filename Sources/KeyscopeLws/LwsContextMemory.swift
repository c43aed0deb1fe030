import CLibWebSockets
import Foundation

/// The C memory an lws context points at for its whole life: its one protocol (name, callback, buffer sizes), the
/// response headers of its vhost, and the strings they and the connection info name. Made before
/// `lws_create_context` on the thread that services the context, and freed after `lws_context_destroy`.
///
/// ```swift
/// let memory = LwsContextMemory(protocolName: "keyscope.v1", rxBufferSize: 64 << 10)
/// info.protocols = UnsafePointer(memory.protocols)
/// info.iface = UnsafePointer(memory.keep("127.0.0.1"))
/// ```
final class LwsContextMemory {
    private var strings: [UnsafeMutablePointer<CChar>] = []
    /// The protocol list lws reads: the one protocol, then the terminating empty entry.
    let protocols: UnsafeMutablePointer<lws_protocols>
    /// The headers lws adds to every response the vhost writes (`nil` when none were given).
    let headers: UnsafeMutablePointer<lws_protocol_vhost_options>?
    private let headerCount: Int
    /// The protocol's name as lws reads it: a buffer of ``nameCapacity`` bytes, NUL-terminated, which its owner may
    /// rewrite on the service thread (lws keeps this pointer, never a copy).
    let protocolName: UnsafeMutablePointer<CChar>
    let nameCapacity: Int

    /// - Parameters:
    ///   - nameCapacity: room for a longer name written later (at least the given name and its NUL).
    ///   - txPacketSize: the largest frame lws writes at once for the protocol (0: lws's default).
    ///   - headers: `(name with its colon, value)` pairs for ``headers``.
    init(
        protocolName: String, nameCapacity: Int = 0, rxBufferSize: Int,
        txPacketSize: Int = 0, headers: [(String, String)] = []
    ) {
        let name = Array(protocolName.utf8CString)
        let capacity = max(nameCapacity, name.count)
        let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: capacity)
        buffer.initialize(repeating: 0, count: capacity)
        name.withUnsafeBufferPointer { buffer.update(from: $0.baseAddress!, count: $0.count) }
        self.nameCapacity = capacity
        self.protocolName = buffer

        protocols = .allocate(capacity: 2)
        protocols.initialize(repeating: lws_protocols(), count: 2)
        protocols[0].name = UnsafePointer(self.protocolName)
        protocols[0].callback = lwsCallback
        protocols[0].per_session_data_size = 0
        protocols[0].rx_buffer_size = rxBufferSize
        protocols[0].tx_packet_size = txPacketSize

        headerCount = headers.count
        if headers.isEmpty {
            self.headers = nil
        } else {
            let list = UnsafeMutablePointer<lws_protocol_vhost_options>.allocate(capacity: headers.count)
            list.initialize(repeating: lws_protocol_vhost_options(), count: headers.count)
            self.headers = list
        }
        for (index, header) in headers.enumerated() {
            self.headers?[index] = lws_protocol_vhost_options(
                next: index + 1 < headers.count ? UnsafePointer(self.headers! + index + 1) : nil, options: nil,
                name: UnsafePointer(keep(header.0)), value: UnsafePointer(keep(header.1)))
        }
    }

    /// A C copy of `text` that lives as long as this object.
    func keep(_ text: String) -> UnsafeMutablePointer<CChar> {
        // strdup only fails when memory is exhausted, where nothing else would work either.
        let copy = strdup(text)!
        strings.append(copy)
        return copy
    }

    deinit {
        for string in strings { free(string) }
        protocols.deinitialize(count: 2)
        protocols.deallocate()
        headers?.deinitialize(count: headerCount)
        headers?.deallocate()
        protocolName.deinitialize(count: nameCapacity)
        protocolName.deallocate()
    }
}

/// An lws context pointer that other threads may hold to wake its service thread.
///
/// `@unchecked Sendable`: other threads use it only for `lws_cancel_service`, the one lws call that is safe from any
/// thread while the context exists; its owner keeps it behind a lock and takes it away before
/// `lws_context_destroy`.
package struct LwsContextHandle: @unchecked Sendable {
    let pointer: OpaquePointer

    init(_ pointer: OpaquePointer) { self.pointer = pointer }

    /// Makes the service thread's `lws_service` return (its handler then gets `.eventWaitCancelled`).
    package func wake() { lws_cancel_service(pointer) }
}
