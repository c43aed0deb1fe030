extension Duration {
    /// The duration in seconds, for dispatch timeouts and `Thread.sleep(forTimeInterval:)`.
    var seconds: Double {
        let (whole, attoseconds) = components
        return Double(whole) + Double(attoseconds) / 1e18
    }

    /// The duration in whole milliseconds (at least 1 when positive), for Redis's blocking commands.
    var milliseconds: Int64 {
        let (whole, attoseconds) = components
        return max(whole * 1000 + attoseconds / 1_000_000_000_000_000, self > .zero ? 1 : 0)
    }
}
