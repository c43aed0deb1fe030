/// A RESP2 reply, as hiredis 0.14 reads it.
public enum RedisReply: Sendable, Hashable {
    /// `+OK`: a status line.
    case status(String)
    /// `-ERR …`: the server refused the command (the connection stays usable).
    case error(String)
    /// `:42`
    case integer(Int64)
    /// `$3\r\nabc`: bytes, binary safe.
    case bulk([UInt8])
    /// `$-1` or `*-1`: no value.
    case null
    /// `*N`: nested replies.
    case array([RedisReply])

    /// The bulk string as UTF-8 text (`nil` for other kinds); a status line reads too.
    public var string: String? {
        switch self {
        case .bulk(let bytes): String(decoding: bytes, as: UTF8.self)
        case .status(let text): text
        default: nil
        }
    }

    /// The integer, also from a bulk string holding one (Lua and HGET give numbers as text).
    public var integer: Int64? {
        switch self {
        case .integer(let value): value
        case .bulk: string.flatMap { Int64($0) }
        default: nil
        }
    }

    public var array: [RedisReply]? {
        if case .array(let items) = self { return items }
        return nil
    }

    public var isNull: Bool { self == .null }
}
