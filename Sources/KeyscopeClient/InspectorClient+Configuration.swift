public import KeyscopeCore

extension InspectorClient {
    /// How a client connects and what it accepts.
    ///
    /// ```swift
    /// var configuration = InspectorClient.Configuration()
    /// configuration.maxMessageBytes = 256 << 20      // for very large snapshots
    /// let client = try await InspectorClient.connect(to: endpoint, configuration: configuration)
    /// ```
    public struct Configuration: Sendable, Hashable {
        /// The largest message accepted from the server, in bytes (64 MiB: snapshots can be big). A larger one
        /// closes the connection with 1009 and ends ``InspectorClient/messages`` with
        /// ``InspectorClientError/Code/tooLarge``.
        public var maxMessageBytes: Int
        /// How long connecting may take, in seconds (also lws's limit for its other network round trips).
        public var connectTimeoutSeconds: Int
        /// How deep the values inside a message may nest (the message's own levels come on top).
        public var maxValueDepth: Int

        public init(
            maxMessageBytes: Int = 64 << 20, connectTimeoutSeconds: Int = 10,
            maxValueDepth: Int = JSONLimits.defaultMaxDepth
        ) {
            self.maxMessageBytes = maxMessageBytes
            self.connectTimeoutSeconds = connectTimeoutSeconds
            self.maxValueDepth = maxValueDepth
        }
    }
}
