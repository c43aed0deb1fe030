import CLibWebSockets

/// A listening context's virtual host (lws's one `default` vhost), for the descriptors its owner has lws poll.
///
/// ```swift
/// guard let watch = vhost.adoptRawFile(descriptor) else { … }   // lws closed the descriptor
/// // .rawFileReadable events for `watch` once the descriptor is readable
/// ```
/// Service thread only.
package struct LwsVhost {
    let vhost: OpaquePointer

    init(_ vhost: OpaquePointer) { self.vhost = vhost }

    /// Has lws poll `descriptor` as a raw file beside its sockets: `.rawFileReadable` events arrive on the returned
    /// connection, and lws closes the descriptor with its context. `nil` when lws refused it (it closed it then).
    package func adoptRawFile(_ descriptor: Int32) -> LwsConnection? {
        lws_adopt_descriptor_vhost(vhost, LWS_ADOPT_RAW_FILE_DESC, lws_sock_file_fd_type(filefd: descriptor), nil, nil)
            .map(LwsConnection.init)
    }
}
