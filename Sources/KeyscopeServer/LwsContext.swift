import CLibWebSockets
import Foundation
import KeyscopeInspector
import KeyscopeProtocol

/// The C memory an lws context points at for its whole life: the protocol list, the vhost's response headers, the
/// strings they name. Made and freed on the service thread.
final class LwsContextMemory {
    private var strings: [UnsafeMutablePointer<CChar>] = []
    let protocols: UnsafeMutablePointer<lws_protocols>
    let headers: UnsafeMutablePointer<lws_protocol_vhost_options>?
    private let headerCount: Int
    /// The conformance echo's protocol name (`nil` for the inspector): lws 4.1 upgrades only to a subprotocol it
    /// has by name, so before each upgrade this buffer becomes the first one the client offers (see
    /// ``ServerCore/adoptSubprotocol(_:)``). lws keeps a pointer to it, never a copy.
    let echoSubprotocol: UnsafeMutablePointer<CChar>?
    /// The buffer's size: lws refuses names over 62 bytes anyway.
    static let subprotocolCapacity = 64

    /// The headers lws puts on every response it writes (its own error pages and file responses included).
    static let securityHeaders: [(String, String)] = [
        ("x-content-type-options:", "nosniff"),
        ("cross-origin-resource-policy:", "same-origin"),
        // The token travels in the page's URL: never send it on as a referrer.
        ("referrer-policy:", "no-referrer"),
        ("x-frame-options:", "DENY"),
    ]

    init(rxBufferSize: Int, echo: Bool = false) {
        protocols = .allocate(capacity: 2)
        protocols.initialize(repeating: lws_protocols(), count: 2)
        let count = Self.securityHeaders.count
        let list = UnsafeMutablePointer<lws_protocol_vhost_options>.allocate(capacity: count)
        headerCount = count
        headers = list
        if echo {
            let name = UnsafeMutablePointer<CChar>.allocate(capacity: Self.subprotocolCapacity)
            name.initialize(repeating: 0, count: Self.subprotocolCapacity)
            echoSubprotocol = name
            protocols[0].name = UnsafePointer(name)
        } else {
            echoSubprotocol = nil
            protocols[0].name = UnsafePointer(keep(InspectorProtocol.subprotocol))
        }
        protocols[0].callback = serverCallback
        protocols[0].per_session_data_size = 0
        protocols[0].rx_buffer_size = rxBufferSize
        for (index, header) in Self.securityHeaders.enumerated() {
            list[index] = lws_protocol_vhost_options(
                next: index + 1 < count ? UnsafePointer(list + index + 1) : nil, options: nil,
                name: UnsafePointer(keep(header.0)), value: UnsafePointer(keep(header.1)))
        }
    }

    /// A C copy of `text` that lives as long as this object.
    func keep(_ text: String) -> UnsafeMutablePointer<CChar> {
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
        echoSubprotocol?.deallocate()
    }
}

/// The C entry point lws calls for every event: finds the core through the context's user pointer.
func serverCallback(
    _ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
    _ input: UnsafeMutableRawPointer?, _ length: Int
) -> Int32 {
    guard let wsi, let core = ServerCore.of(wsi) else { return 0 }
    return core.handle(wsi, reason, user, input, length)
}

/// An lws context pointer that other threads may hold to call `lws_cancel_service` (the one thread-safe lws call).
struct ContextHandle: @unchecked Sendable {
    let pointer: OpaquePointer
}
