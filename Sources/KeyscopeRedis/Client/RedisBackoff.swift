/// How long to wait before the next connection attempt: doubling from `initial` to at most `maximum`, reset by a
/// success. The default (0.1 s … 2 s) reconnects within about 2 s of a server coming back.
public struct RedisBackoff: Sendable, Hashable {
    public var initial: Duration
    public var maximum: Duration
    private var next: Duration

    public init(initial: Duration = .milliseconds(100), maximum: Duration = .seconds(2)) {
        self.initial = initial
        self.maximum = maximum
        self.next = initial
    }

    /// The delay before the next attempt; each call doubles the one after it (up to `maximum`).
    public mutating func nextDelay() -> Duration {
        let delay = next
        next = min(next * 2, maximum)
        return delay
    }

    /// A success: the next failure waits `initial` again.
    public mutating func reset() { next = initial }
}
