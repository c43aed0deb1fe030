extension InspectorHub {
    /// Wakes whoever serves the hub's clients (the server's service thread, through ``appendSignal``, once per burst
    /// like an append): a feature whose ``FeatureStream`` has news calls it, from any thread.
    public func wakeClients() { appendSignal.raise() }
}
