import CLibWebSockets

/// The parts of an HTTP request that lws parsed, read from its header table (valid during the HTTP callbacks and
/// the upgrade confirmation, while the table is still bound to the connection).
///
/// ```swift
/// let request = LwsRequest(connection)
/// request.value(.contentType)        // "application/json"
/// request.query("resume")            // "42"
/// ```
package struct LwsRequest {
    let wsi: OpaquePointer

    package init(_ connection: LwsConnection) { self.wsi = connection.wsi }

    /// Every occurrence of a header (lws keeps repeated headers as fragments), each as its own string.
    package func values(_ header: LwsHeader) -> [String] {
        let token = header.token
        var values: [String] = []
        var index: Int32 = 0
        while true {
            let length = lws_hdr_fragment_length(wsi, token, index)
            guard length >= 0, index < 64 else { break }
            if length == 0 && lws_hdr_total_length(wsi, token) == 0 { break }
            var buffer = [CChar](repeating: 0, count: Int(length) + 1)
            let copied = lws_hdr_copy_fragment(wsi, &buffer, Int32(buffer.count), token, index)
            guard copied >= 0 else { break }
            values.append(String(decoding: buffer.prefix(Int(copied)).map { UInt8(bitPattern: $0) }, as: UTF8.self))
            index += 1
        }
        return values
    }

    /// The header's value (fragments joined by lws), or `nil` when absent.
    package func value(_ header: LwsHeader) -> String? {
        let token = header.token
        let length = lws_hdr_total_length(wsi, token)
        guard length > 0 else { return nil }
        var buffer = [CChar](repeating: 0, count: Int(length) + 1)
        let copied = lws_hdr_copy(wsi, &buffer, Int32(buffer.count), token)
        guard copied >= 0 else { return nil }
        return String(decoding: buffer.prefix(Int(copied)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A header lws has no token for (`name` with its colon, lower case: `"origin:"` has one, `"x-thing:"` not).
    package func custom(_ name: String) -> String? {
        name.withCString { cName -> String? in
            let nameLength = Int32(name.utf8.count)
            let length = lws_hdr_custom_length(wsi, cName, nameLength)
            guard length > 0 else { return nil }
            var buffer = [CChar](repeating: 0, count: Int(length) + 1)
            guard lws_hdr_custom_copy(wsi, &buffer, Int32(buffer.count), cName, nameLength) >= 0 else { return nil }
            return String(decoding: buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }

    /// The method and the path (percent-decoded by lws, without the query).
    package var methodAndPath: (method: String, path: String)? {
        var uri: UnsafeMutablePointer<CChar>?
        var length: Int32 = 0
        let method = lws_http_get_uri_and_method(wsi, &uri, &length)
        guard method >= 0, let uri else { return nil }
        let path = String(
            decoding: UnsafeRawBufferPointer(start: uri, count: Int(length)).bindMemory(to: UInt8.self), as: UTF8.self)
        let names = ["GET", "POST", "OPTIONS", "PUT", "PATCH", "DELETE", "CONNECT", "HEAD", ":path"]
        return (Int(method) < names.count ? names[Int(method)] : "?", path)
    }

    /// The query's `name=value` pairs (lws splits at `&` and percent-decodes them).
    package var queryItems: [(name: String, value: String)] {
        values(.queryItems).map { item in
            guard let equals = item.firstIndex(of: "=") else { return (item, "") }
            return (String(item[..<equals]), String(item[item.index(after: equals)...]))
        }
    }

    /// The first value of a query parameter.
    package func query(_ name: String) -> String? { queryItems.first { $0.name == name }?.value }

    /// The token the client presented: `Authorization: Bearer T`, else `?token=T`.
    package var presentedToken: String? {
        if let authorization = value(.authorization) {
            let prefix = "Bearer "
            if authorization.count > prefix.count, authorization.lowercased().hasPrefix("bearer ") {
                return String(authorization.dropFirst(prefix.count)).trimmingSpaces
            }
            return nil
        }
        return query("token")
    }
}

extension String {
    fileprivate var trimmingSpaces: String {
        var text = Substring(self)
        while text.first == " " { text = text.dropFirst() }
        while text.last == " " { text = text.dropLast() }
        return String(text)
    }
}
