#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a benchmark client failed: what went wrong, in words.
struct ClientError: Error, CustomStringConvertible {
    private enum Kind {
        case system(String, Int32)
        case handshake(String)
        case protocolViolation(String)
    }

    private let kind: Kind

    static func system(_ call: String, _ code: Int32) -> ClientError { ClientError(kind: .system(call, code)) }
    static func handshake(_ status: String) -> ClientError { ClientError(kind: .handshake(status)) }
    static func protocolViolation(_ what: String) -> ClientError { ClientError(kind: .protocolViolation(what)) }

    var description: String {
        switch kind {
        case .system(let call, let code): "\(call) failed: \(String(cString: strerror(code)))"
        case .handshake(let status):
            "the WebSocket upgrade was refused (\(status)); check the port and the token the server printed"
        case .protocolViolation(let what): "the server broke the WebSocket protocol: \(what)"
        }
    }
}

/// A benchmark that could not run as planned, with the reason.
struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
