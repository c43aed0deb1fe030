import KeyscopeRedis

/// A Redis client whose replies are flattened to text, for looking into what the fleet wrote.
struct RedisClientForTests {
    let client: RedisClient

    init(url: String) { client = RedisClient(url: try! RedisURL(parsing: url)) }

    func strings(_ command: [String]) throws -> [String] {
        flatten(try client.call(command))
    }

    private func flatten(_ reply: RedisReply) -> [String] {
        switch reply {
        case .array(let items): items.flatMap(flatten)
        case .integer(let value): [String(value)]
        default: reply.string.map { [$0] } ?? []
        }
    }
}
