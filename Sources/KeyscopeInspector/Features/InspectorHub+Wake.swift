extension InspectorHub {
    /// Wakes whoever serves the hub's clients (the server's service thread, through ``onAppend``): a feature whose
    /// ``FeatureStream`` has news calls it, from any thread.
    public func wakeClients() { onAppend?() }
}
