/// Why an ``InspectorServer`` could not start.
public enum ServerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// An option is out of range or unsafe (a non-loopback host without a token, a too-short token, …).
    case invalidOption(String)
    /// libwebsockets could not create the listening context (the port is taken, the address is not local, …).
    case listenFailed(host: String, port: Int)
    /// The server was already started once; make a new one.
    case alreadyStarted

    public var description: String {
        switch self {
        case .invalidOption(let message): message
        case .listenFailed(let host, let port):
            "could not listen on \(host):\(port) (is the port taken, or the address not one of this machine's?)"
        case .alreadyStarted: "this server was already started; make a new InspectorServer"
        }
    }
}
