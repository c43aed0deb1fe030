import CLibWebSockets

/// The request headers lws parses into its header table that the server and the conformance echo read (through
/// ``LwsRequest``). A header lws has no name for is read with ``LwsRequest/custom(_:)``.
///
/// ```swift
/// request.value(.contentType)      // "application/json; charset=utf-8"
/// request.values(.host)            // one element per Host line
/// ```
package enum LwsHeader: Sendable, Hashable, CaseIterable {
    case host
    case origin
    case authorization
    case contentType
    case contentLength
    case transferEncoding
    /// `Sec-WebSocket-Extensions`.
    case webSocketExtensions
    /// `Sec-WebSocket-Protocol`.
    case webSocketProtocol
    /// The query string, as `name=value` items (lws splits it at `&` and percent-decodes each).
    case queryItems
    /// Set (to the path) only for a `HEAD` request.
    case headPath

    /// lws's index of the header in its table.
    var token: lws_token_indexes {
        switch self {
        case .host: WSI_TOKEN_HOST
        case .origin: WSI_TOKEN_ORIGIN
        case .authorization: WSI_TOKEN_HTTP_AUTHORIZATION
        case .contentType: WSI_TOKEN_HTTP_CONTENT_TYPE
        case .contentLength: WSI_TOKEN_HTTP_CONTENT_LENGTH
        case .transferEncoding: WSI_TOKEN_HTTP_TRANSFER_ENCODING
        case .webSocketExtensions: WSI_TOKEN_EXTENSIONS
        case .webSocketProtocol: WSI_TOKEN_PROTOCOL
        case .queryItems: WSI_TOKEN_HTTP_URI_ARGS
        case .headPath: WSI_TOKEN_HEAD_URI
        }
    }
}
